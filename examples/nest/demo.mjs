// Starts the example app on an ephemeral port, sends a few requests, prints the answers, and
// shuts down (ObsModule flushes on app.close()). Reads OBS_BASE_URL, OBS_PUBLIC_KEY and
// OBS_SECRET_KEY from the environment. Run `npm run build` in this folder first (the root
// `npm run demo` does).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
if (!existsSync(join(here, 'dist', 'app.js'))) {
  console.error('examples/nest: dist/ is missing; run `npm run build -w @obs/example-nest` first');
  process.exit(1);
}
const { createApp } = await import('./dist/app.js');

const app = await createApp();
await app.listen(0, '127.0.0.1');
const base = `http://127.0.0.1:${app.getHttpServer().address().port}/api`;
const alice = { authorization: 'Bearer token-alice', 'x-session-id': 'demo-session-1' };

// 1. A question: guard -> identify (alice) -> retriever -> generation.
const ask = await fetch(`${base}/chat/c-1`, {
  method: 'POST',
  headers: { ...alice, 'content-type': 'application/json' },
  body: JSON.stringify({ question: 'How do scores attach feedback?' }),
});
console.log(`POST /api/chat/c-1 -> ${ask.status} trace ${ask.headers.get('x-obs-trace-id')}`, await ask.json());

// 2. A streamed answer over server-sent events.
const sse = await fetch(`${base}/chat/c-1/stream?q=${encodeURIComponent('what is a trace?')}`, { headers: alice });
const events = (await sse.text()).match(/^data: .*$/gm) ?? [];
console.log(`GET /api/chat/c-1/stream -> ${sse.status}, ${events.length} events:`, events.map((e) => e.slice(6)).join(''));

// 3. A conversation that does not exist: a 404, which is an answer, not an error.
const missing = await fetch(`${base}/chat/c-404/history`, { headers: alice });
console.log(`GET /api/chat/c-404/history -> ${missing.status}`, await missing.json());

await app.close();
console.log('examples/nest: done (spans flushed on app.close())');

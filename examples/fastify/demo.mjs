// Starts the example app on an ephemeral port, sends a few realistic requests, prints the
// answers, and closes it (app.close() flushes the spans). Reads OBS_BASE_URL, OBS_PUBLIC_KEY and
// OBS_SECRET_KEY from the environment (the root `npm run demo` sets them).
import { createApp } from './src/app.js';

const app = await createApp();
const base = `${await app.listen({ port: 0, host: '127.0.0.1' })}/api/chat`;
const alice = { authorization: 'Bearer token-alice', 'x-session-id': 'demo-session-2' };

// 1. A question: auth hook -> identify (alice) -> LangChain chain -> generation.
const ask = await fetch(`${base}/c-1`, {
  method: 'POST',
  headers: { ...alice, 'content-type': 'application/json' },
  body: JSON.stringify({ question: 'What is a span?' }),
});
console.log(`POST /api/chat/c-1 -> ${ask.status} trace ${ask.headers.get('x-obs-trace-id')}`, await ask.json());

// 2. The answer streamed over server-sent events.
const sse = await fetch(`${base}/c-1/stream?q=${encodeURIComponent('what is a span?')}`, { headers: alice });
const events = (await sse.text()).match(/^data: .*$/gm) ?? [];
console.log(
  `GET /api/chat/c-1/stream -> ${sse.status}, ${events.length} events:`,
  events
    .slice(0, -1)
    .map((e) => JSON.parse(e.slice(6)).token)
    .join(''),
);

// 3. A conversation that does not exist: a 404, an answer rather than an error.
const missing = await fetch(`${base}/c-404/history`, { headers: alice });
console.log(`GET /api/chat/c-404/history -> ${missing.status}`, await missing.json());

await app.close();
console.log('examples/fastify: done (spans flushed on app.close())');

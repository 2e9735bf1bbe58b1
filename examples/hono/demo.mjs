// Serves the example app on Node.js (@hono/node-server) on an ephemeral port, sends a few
// realistic requests, prints the answers, closes the server and flushes. Reads OBS_BASE_URL,
// OBS_PUBLIC_KEY and OBS_SECRET_KEY from the environment (the root `npm run demo` sets them).
import { serve } from '@hono/node-server';
import { getObsHandle } from '@obs/core';
import { createApp } from './src/app.js';

const server = await new Promise((resolve) => {
  const s = serve({ fetch: createApp().fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
});
const base = `http://127.0.0.1:${server.address().port}/api/chat`;
const alice = { authorization: 'Bearer token-alice', 'x-session-id': 'demo-session-3' };

// 1. A question: auth middleware -> identify (alice) -> LangChain chain -> generation.
const ask = await fetch(`${base}/c-1`, {
  method: 'POST',
  headers: { ...alice, 'content-type': 'application/json' },
  body: JSON.stringify({ question: 'What is an observation?' }),
});
console.log(`POST /api/chat/c-1 -> ${ask.status} trace ${ask.headers.get('x-obs-trace-id')}`, await ask.json());

// 2. The answer streamed over server-sent events (hono/streaming's streamSSE).
const sse = await fetch(`${base}/c-1/stream?q=${encodeURIComponent('what is an observation?')}`, { headers: alice });
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

await new Promise((resolve) => server.close(resolve));
await getObsHandle()?.flush();
console.log('examples/hono: done (spans flushed)');

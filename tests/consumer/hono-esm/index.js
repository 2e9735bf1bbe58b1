// A Hono ESM app on @hono/node-server as a new user writes it, with the packed tarballs installed.
import { getObsHandle, startActiveObservation } from '@obs/core';
import { obs } from '@obs/hono';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono();
app.use(obs({ identify: (c) => ({ userId: c.req.header('x-user') ?? 'anonymous' }) }));
app.post('/chat/:id', async (c) => {
  const question = await c.req.json();
  const answer = await startActiveObservation('answer', async (span) => {
    span.update({ input: question, output: 'hono answer' });
    return 'hono answer';
  });
  return c.json({ answer });
});
const server = await new Promise((resolve) => {
  const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
});
const res = await fetch(`http://127.0.0.1:${server.address().port}/chat/1`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-user': 'hono-user' },
  body: JSON.stringify({ question: 'hi' }),
});
const body = await res.json();
await new Promise((r) => server.close(r));
await getObsHandle()?.shutdown();
console.log(`RESULT ${JSON.stringify({ traceId: res.headers.get('x-obs-trace-id'), body })}`);

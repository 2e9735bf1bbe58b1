// A Fastify 5 ESM app as a new user writes it, with the packed tarballs installed.
import { getObsHandle, startActiveObservation } from '@obs/core';
import { obsPlugin } from '@obs/fastify';
import Fastify from 'fastify';

const app = Fastify();
await app.register(obsPlugin, { identify: (request) => ({ userId: String(request.headers['x-user'] ?? 'anonymous') }) });
app.post('/chat/:id', async (request) => {
  const answer = await startActiveObservation('answer', async (span) => {
    span.update({ input: request.body, output: 'fastify answer' });
    return 'fastify answer';
  });
  return { answer };
});
const url = await app.listen({ port: 0, host: '127.0.0.1' });
const res = await fetch(`${url}/chat/1`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-user': 'fastify-user' },
  body: JSON.stringify({ question: 'hi' }),
});
const body = await res.json();
await app.close();
await getObsHandle()?.shutdown();
console.log(`RESULT ${JSON.stringify({ traceId: res.headers.get('x-obs-trace-id'), body })}`);

/**
 * The Fastify app the suites run, serving the routes of the Node.js adapters' shared scenarios
 * (tests/support/node-adapter-scenarios.ts) as Fastify apps write them: an auth hook that sets
 * `request.user`, routes inside a prefixed plugin, a child observation, server-sent events written
 * to the raw response (hijacked), a streamed reply, errors thrown and errors answered by a plugin's
 * own error handler, a health check.
 */
import { Readable } from 'node:stream';
import { startActiveObservation } from '@obs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    user?: { id: string };
  }
}

export const answer = (message: string) =>
  startActiveObservation('answer', async (o) => {
    o.update({ input: message, output: `echo: ${message}` });
    return `echo: ${message}`;
  });

/** Route-level auth as apps write it: an onRequest hook that refuses or sets `request.user`. */
async function auth(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const user = request.headers['x-user'];
  if (typeof user !== 'string') {
    await reply.code(401).send({ error: 'who are you?' });
    return;
  }
  request.user = { id: user };
}

/** The routes, registered after the obs plugin. */
export function routes(app: FastifyInstance): void {
  app.register(
    async (api) => {
      api.post<{ Params: { id: string }; Body: { message: string } }>('/chat/:id', { onRequest: auth }, async (request) => ({
        answer: await answer(request.body.message),
      }));
      // Auth as a route-level preHandler: it runs after the plugin's own preHandler hook.
      api.get('/profile', { preHandler: auth }, async (request) => ({ user: request.user?.id, greeting: await answer('profile') }));
    },
    { prefix: '/api' },
  );
  app.get('/sse', (request, reply) => {
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    void (async () => {
      for (const token of ['one', 'two', 'three']) {
        await answer(token);
        reply.raw.write(`data: ${token}\n\n`);
      }
      reply.raw.end();
    })();
    reply.hijack();
    void request;
  });
  app.get('/raw-sse', (_request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const token of ['a', 'b']) reply.raw.write(`data: ${token}\n\n`);
    reply.raw.end();
  });
  // The text as a stream Fastify pipes.
  app.get('/text', async (_request, reply) => {
    reply.type('text/plain');
    return reply.send(Readable.from(['plain ', 'words']));
  });
  app.get('/crash', async () => {
    throw new Error('database on fire');
  });
  app.get('/tickets/:id', async () => {
    throw Object.assign(new Error('no such ticket'), { statusCode: 404 });
  });
  app.get('/health', async () => 'ok');
  // A plugin with its own error handler that answers with a body of its own, not the error.
  app.register(async (billing) => {
    billing.setErrorHandler(async (error: Error & { statusCode?: number }, _request, reply) => {
      const status = error.statusCode === 402 ? 402 : 503;
      return reply.code(status).send({ error: status === 402 ? 'pay first' : 'billing is down' });
    });
    billing.get('/billing/charge', async () => {
      throw new Error('card processor timed out');
    });
    billing.get('/billing/unpaid', async () => {
      throw Object.assign(new Error('invoice 7 unpaid'), { statusCode: 402 });
    });
  });
}

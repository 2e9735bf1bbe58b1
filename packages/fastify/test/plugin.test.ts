/**
 * `@obs/fastify` on Fastify 5 and 4 over real HTTP, against the local obs server: the Node.js
 * adapters' shared scenarios on the Fastify app (one trace per request, the root named after the
 * route pattern, prefixes included, with redacted input and output, identify after the route's
 * auth hook, in onRequest or in a preHandler after the plugin's own, on every span, server-sent
 * events and streamed replies reassembled, the 4xx/5xx rule for thrown errors and for errors a
 * plugin's setErrorHandler answers, health checks ignored, unmatched requests named
 * `<unmatched>`); then the options given Fastify's request and reply, the trace-id header, and an
 * adapter bug that leaves every request served unchanged.
 */
import { obsPlugin, type ObsFastifyOptions } from '@obs/fastify';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chatRequest, expectServedUnchanged, nodeAdapterScenarios } from '../../../tests/support/node-adapter-scenarios.js';
import { routes } from './fixtures.js';
import { FASTIFY_VERSIONS, initTestObs, listen, type Running, traceOf } from './harness.js';

const local = setupObsServer({ init: initTestObs });

const identify: ObsFastifyOptions['identify'] = (request) => ({
  userId: request.user?.id ?? 'anonymous',
  sessionId: request.headers['x-session'] as string | undefined,
});

describe.each(FASTIFY_VERSIONS)('$name', ({ Fastify }) => {
  let app: Running;
  beforeAll(async () => {
    const fastify = Fastify();
    await fastify.register(obsPlugin, { identify });
    routes(fastify);
    app = await listen(fastify);
  });
  afterAll(async () => app?.close());

  nodeAdapterScenarios(local, () => app);
});

describe('options and failures (Fastify 5)', () => {
  const { Fastify } = FASTIFY_VERSIONS[0]!;

  it('captureInput and captureOutput get the FastifyRequest and FastifyReply; traceIdHeader and name', async () => {
    const fastify = Fastify();
    await fastify.register(obsPlugin, {
      identify,
      traceIdHeader: 'x-trace',
      name: (request) => `chat ${request.url}`,
      captureInput: (request) => ({ user: request.user?.id, id: (request.params as { id?: string }).id }),
      captureOutput: (body, reply) => ({ status: reply.statusCode, body }),
    });
    routes(fastify);
    const app = await listen(fastify);
    try {
      const res = await app.fetch('/api/chat/9', chatRequest('u-9'));
      expect(res.headers.get('x-obs-trace-id')).toBeNull();
      await res.text();
      await local.handle.flush();
      const { root } = await traceOf(local.server, res.headers.get('x-trace'), 2);
      expect(root.name).toBe('chat /api/chat/9');
      expect(JSON.parse(root.attributes['obs.observation.input'] as string)).toEqual({ user: 'u-9', id: '9' });
      expect(JSON.parse(root.attributes['obs.observation.output'] as string)).toEqual({ status: 200, body: { answer: 'echo: hello' } });
    } finally {
      await app.close();
    }
  });

  it('an adapter bug (obs cannot read the route) logs one line and serves every request unchanged', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const fastify = Fastify();
    try {
      // Breaks what obs reads, before obs's hook runs: obs's own code throws.
      fastify.addHook('onRequest', (request, _reply, done) => {
        Object.defineProperty(request, 'routeOptions', {
          get() {
            throw new TypeError('route options unavailable');
          },
        });
        done();
      });
      await fastify.register(obsPlugin);
      fastify.get('/ok', async (_request, reply) => reply.code(201).header('x-app', 'yes').send({ fine: true }));
      await expectServedUnchanged(await listen(fastify), warn, '@obs/fastify', 'route options unavailable');
    } finally {
      warn.mockRestore();
      await fastify.close();
    }
  });
});

/**
 * `@obs/fastify` on Fastify 5 and 4 over real HTTP, against the local obs server: one trace per
 * request, the root named after the route pattern (prefixes included) with redacted input and
 * output, identify after the route's auth hook on every span, server-sent events and streamed
 * replies reassembled, the 4xx/5xx rule for thrown errors and for errors a custom error handler
 * answers, the trace-id header, health checks ignored, unmatched requests named `<unmatched>`.
 */
import { obsPlugin, type ObsFastifyOptions } from '@obs/fastify';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { routes } from './fixtures.js';
import { FASTIFY_VERSIONS, initTestObs, listen, type Running, traceOf } from './harness.js';

const local = setupObsServer({ init: initTestObs });

const identify: ObsFastifyOptions['identify'] = (request) => ({
  userId: request.user?.id ?? 'anonymous',
  sessionId: request.headers['x-session'] as string | undefined,
});

const chat = (user?: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(user ? { 'x-user': user } : {}), 'x-session': 's-1' },
  body: JSON.stringify({ message: 'hello', password: 'hunter2' }),
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

  it('one trace per request: the prefixed route pattern, redacted input, the reply’s value, identify after auth on every span', async () => {
    const res = await app.fetch('/api/chat/7', chat('u-7'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ answer: 'echo: hello' });
    await local.handle.flush();
    const { root, all } = await traceOf(local.server, res.headers.get('x-obs-trace-id'), 2);
    expect(root.name).toBe('POST /api/chat/:id');
    expect(root.attributes).toMatchObject({
      'http.route': '/api/chat/:id',
      'http.response.status_code': 200,
      'user.id': 'u-7',
      'session.id': 's-1',
    });
    expect(JSON.parse(root.attributes['obs.observation.input'] as string)).toEqual({ message: 'hello', password: '[REDACTED]' });
    expect(JSON.parse(root.attributes['obs.observation.output'] as string)).toEqual({ answer: 'echo: hello' });
    const child = all.find((s) => s.name === 'answer')!;
    expect(child.parentSpanId).toBe(root.spanId);
    expect(child.attributes['user.id']).toBe('u-7');
    expect(local.server.spans()).toHaveLength(2);
  });

  it('auth in a route-level preHandler (after the plugin’s own hook): identify still sees its user', async () => {
    const res = await app.fetch('/api/profile', { headers: { 'x-user': 'u-pre' } });
    expect(await res.json()).toEqual({ user: 'u-pre', greeting: 'echo: profile' });
    await local.handle.flush();
    const { root, all } = await traceOf(local.server, res.headers.get('x-obs-trace-id'), 2);
    expect(root.name).toBe('GET /api/profile');
    for (const s of all) expect(s.attributes['user.id'], s.name).toBe('u-pre');
  });

  it('a request the auth hook refused: traced, identified anonymous, a 401 that is the client’s', async () => {
    const res = await app.fetch('/api/chat/7', chat());
    expect(res.status).toBe(401);
    await res.text();
    await local.handle.flush();
    const { root } = await traceOf(local.server, res.headers.get('x-obs-trace-id'), 1);
    expect(root.name).toBe('POST /api/chat/:id');
    expect(root.attributes['user.id']).toBe('anonymous');
    expect(root.attributes['obs.observation.level']).toBeUndefined();
  });

  it('server-sent events written to the raw response and a streamed reply: reassembled as they pass', async () => {
    const sse = await app.fetch('/sse');
    const events = await sse.text();
    expect(events).toBe('data: one\n\ndata: two\n\ndata: three\n\n');
    const stream = await app.fetch('/stream');
    expect(await stream.text()).toBe('streamed reply text');
    await local.handle.flush();
    const { root: s, all } = await traceOf(local.server, sse.headers.get('x-obs-trace-id'), 4);
    expect(s.name).toBe('GET /sse');
    expect(s.attributes['obs.observation.output']).toBe(events);
    expect(all.filter((x) => x.name === 'answer' && x.parentSpanId === s.spanId)).toHaveLength(3);
    const { root: r } = await traceOf(local.server, stream.headers.get('x-obs-trace-id'), 1);
    expect(r.attributes['obs.observation.output']).toBe('streamed reply text');
  });

  it('errors: a crash is ERROR with its message, a 404 thrown is the client’s', async () => {
    const crash = await app.fetch('/crash');
    expect(crash.status).toBe(500);
    await crash.text();
    const missing = await app.fetch('/missing');
    expect(missing.status).toBe(404);
    await missing.text();
    await local.handle.flush();
    const { root: c } = await traceOf(local.server, crash.headers.get('x-obs-trace-id'), 1);
    expect(c.attributes).toMatchObject({
      'obs.observation.level': 'ERROR',
      'obs.observation.status_message': 'database on fire',
      'http.response.status_code': 500,
    });
    expect(c.status.code).toBe(2);
    const { root: m } = await traceOf(local.server, missing.headers.get('x-obs-trace-id'), 1);
    expect(m.attributes['obs.observation.level']).toBeUndefined();
    expect(m.attributes['obs.observation.status_message']).toBe('no such ticket');
  });

  it('errors a plugin’s setErrorHandler answers with a body of its own: the original error, judged by the status sent', async () => {
    const down = await app.fetch('/billing/charge');
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ error: 'billing is down' });
    const unpaid = await app.fetch('/billing/unpaid');
    expect(unpaid.status).toBe(402);
    await unpaid.text();
    await local.handle.flush();
    const { root: d } = await traceOf(local.server, down.headers.get('x-obs-trace-id'), 1);
    expect(d.name).toBe('GET /billing/charge');
    expect(d.attributes).toMatchObject({ 'obs.observation.level': 'ERROR', 'obs.observation.status_message': 'card processor timed out' });
    const { root: u } = await traceOf(local.server, unpaid.headers.get('x-obs-trace-id'), 1);
    expect(u.attributes['obs.observation.level']).toBeUndefined();
    expect(u.attributes['obs.observation.status_message']).toBe('invoice 7 unpaid');
  });

  it('health checks make no trace; a request no route matched is `METHOD <unmatched>` with its path', async () => {
    const health = await app.fetch('/health');
    expect(await health.text()).toBe('ok');
    expect(health.headers.get('x-obs-trace-id')).toBeNull();
    const nowhere = await app.fetch('/nowhere/7');
    expect(nowhere.status).toBe(404);
    await nowhere.text();
    await local.handle.flush();
    const { root } = await traceOf(local.server, nowhere.headers.get('x-obs-trace-id'), 1);
    expect(root.name).toBe('GET <unmatched>');
    expect(root.attributes['url.path']).toBe('/nowhere/7');
    expect(local.server.spans()).toHaveLength(1);
  });
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
      const res = await app.fetch('/api/chat/9', chat('u-9'));
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
      const app = await listen(fastify);
      for (let i = 0; i < 3; i++) {
        const res = await app.fetch('/ok');
        expect(res.status).toBe(201);
        expect(res.headers.get('x-app')).toBe('yes');
        expect(await res.json()).toEqual({ fine: true });
      }
      const lines = warn.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('@obs/fastify'));
      expect(lines).toEqual([expect.stringContaining('route options unavailable')]);
    } finally {
      warn.mockRestore();
      await fastify.close();
    }
  });
});

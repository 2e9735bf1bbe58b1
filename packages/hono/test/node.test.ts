/**
 * `@obs/hono` on Node.js, in-process (`app.fetch`, as tests and serverless hosts call it) and over
 * real HTTP (`@hono/node-server`), against the local obs server: one trace per request with the
 * route-named root, redacted input, output, identify's user (set by auth middleware mounted after
 * obs) on every span, SSE reassembled, the 4xx/5xx rule, the trace-id header, health checks
 * ignored, an adapter bug that leaves the response unchanged, and a body nobody reads.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { setupObsServer } from '@obs/local-server/testing';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { obs } from '@obs/hono';
import { type AppEnv, createApp } from './fixtures/app.js';
import { chatRequest, expectChatTree, initTestObs, traceOf } from './harness.js';

const local = setupObsServer({ init: initTestObs });

interface Transport {
  name: string;
  start(app: Hono<AppEnv>): Promise<{ fetch: (path: string, init?: RequestInit) => Promise<Response>; close: () => Promise<void> }>;
}

const transports: Transport[] = [
  {
    name: 'in-process (app.fetch)',
    async start(app) {
      return { fetch: async (path, init) => app.fetch(new Request(`http://app.local${path}`, init)), close: async () => undefined };
    },
  },
  {
    name: '@hono/node-server over HTTP',
    async start(app) {
      const server: ServerType = await new Promise((resolve) => {
        const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
      });
      const { port } = server.address() as AddressInfo;
      return {
        fetch: (path, init) => fetch(`http://127.0.0.1:${port}${path}`, init),
        close: () => new Promise<void>((resolve) => server.close(() => resolve())),
      };
    },
  },
];

describe.each(transports)('Hono on Node.js, $name', (transport) => {
  let app: Awaited<ReturnType<Transport['start']>>;
  beforeAll(async () => {
    app = await transport.start(createApp());
  });
  afterAll(async () => app?.close());

  it('one trace per request: the route-named root, redacted input, output, identify (after auth) on every span, the child nested', async () => {
    const res = await app.fetch('/chat/7', chatRequest('u-7'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ answer: 'echo: hello' });
    await local.handle.flush();
    const { root, all } = await traceOf(local.server, res.headers.get('x-obs-trace-id'), 2);
    expectChatTree(root, all, 'u-7');
    expect(local.server.spans()).toHaveLength(2);
  });

  it('a server-sent event stream passes through as it streams, its events reassembled as the output, one child per token', async () => {
    const res = await app.fetch('/stream/news');
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const body = await res.text();
    expect(body).toBe('data: one\n\ndata: two\n\ndata: three\n\n');
    await local.handle.flush();
    const { root, all } = await traceOf(local.server, res.headers.get('x-obs-trace-id'), 4);
    expect(root.name).toBe('GET /stream/:topic');
    expect(root.attributes['obs.observation.output']).toBe(body);
    expect(all.filter((s) => s.name === 'answer' && s.parentSpanId === root.spanId)).toHaveLength(3);
  });

  it('a crash answered 500 is level ERROR with its message', async () => {
    const res = await app.fetch('/crash');
    expect(res.status).toBe(500);
    await res.text();
    await local.handle.flush();
    const { root } = await traceOf(local.server, res.headers.get('x-obs-trace-id'), 1);
    expect(root.name).toBe('GET /crash');
    expect(root.attributes).toMatchObject({
      'obs.observation.level': 'ERROR',
      'obs.observation.status_message': 'database on fire',
      'http.response.status_code': 500,
    });
    expect(root.status.code).toBe(2);
  });

  it('an error answered with a 4xx is the client’s: its message, level unchanged; auth refusals are traced too, anonymous', async () => {
    const res = await app.fetch('/missing');
    expect(res.status).toBe(404);
    await res.text();
    const refused = await app.fetch('/chat/7', { method: 'POST', body: '{}' });
    expect(refused.status).toBe(401);
    await refused.text();
    await local.handle.flush();
    const { root } = await traceOf(local.server, res.headers.get('x-obs-trace-id'), 1);
    expect(root.attributes['obs.observation.level']).toBeUndefined();
    expect(root.attributes['obs.observation.status_message']).toBe('no such ticket');
    expect(root.status.code).not.toBe(2);
    const { root: auth } = await traceOf(local.server, refused.headers.get('x-obs-trace-id'), 1);
    expect(auth.name).toBe('POST /chat/:id');
    expect(auth.attributes).toMatchObject({ 'user.id': 'anonymous', 'obs.observation.status_message': 'who are you?' });
    expect(auth.attributes['obs.observation.level']).toBeUndefined();
  });

  it('health checks and unknown routes: no trace for the first, `METHOD <unmatched>` with its path for the second', async () => {
    const res = await app.fetch('/health');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
    expect(res.headers.get('x-obs-trace-id')).toBeNull();
    const missing = await app.fetch('/nowhere');
    expect(missing.status).toBe(404);
    await missing.text();
    await local.handle.flush();
    const { root } = await traceOf(local.server, missing.headers.get('x-obs-trace-id'), 1);
    expect(root.name).toBe('GET <unmatched>');
    expect(root.attributes['url.path']).toBe('/nowhere');
    expect(root.attributes['http.route']).toBeUndefined();
    expect(local.server.spans()).toHaveLength(1);
  });
});

describe('Hono on Node.js: options and failures', () => {
  it('the shared options: traceIdHeader, name, captureInput/captureOutput see the Context and the Response, ignore', async () => {
    const app = createApp({
      traceIdHeader: 'x-trace',
      name: (c) => `chat ${c.req.param('id') ?? c.req.path}`,
      captureInput: (c) => ({ user: c.req.header('x-user') }),
      captureOutput: (body, res) => ({ status: res.status, body }),
      ignore: ['/crash'],
    });
    const res = await app.request('/chat/9', chatRequest('u-9'));
    expect(res.headers.get('x-obs-trace-id')).toBeNull();
    await res.text();
    const crash = await app.request('/crash');
    expect(crash.headers.get('x-trace')).toBeNull();
    await local.handle.flush();
    const { root } = await traceOf(local.server, res.headers.get('x-trace'), 2);
    expect(root.name).toBe('chat /chat/9');
    expect(JSON.parse(root.attributes['obs.observation.input'] as string)).toEqual({ user: 'u-9' });
    expect(JSON.parse(root.attributes['obs.observation.output'] as string)).toEqual({ status: 200, body: '{"answer":"echo: hello"}' });
    expect(local.server.spans()).toHaveLength(2);
  });

  it('a sub-app mounted with app.route: the full route pattern', async () => {
    const api = new Hono();
    api.get('/users/:id', (c) => c.json({ id: c.req.param('id') }));
    const app = new Hono();
    app.use(obs());
    app.route('/api', api);
    const res = await app.request('/api/users/3');
    expect(await res.json()).toEqual({ id: '3' });
    await local.handle.flush();
    const { root } = await traceOf(local.server, res.headers.get('x-obs-trace-id'), 1);
    expect(root.name).toBe('GET /api/users/:id');
    expect(root.attributes['http.route']).toBe('/api/users/:id');
  });

  it('an adapter bug (obs cannot read the request) logs one line and serves every request unchanged', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const app = new Hono();
      // Breaks what obs reads first, before obs runs: obs's own code throws.
      app.use(async (c, next) => {
        Object.defineProperty(c.req, 'raw', {
          get() {
            throw new TypeError('raw request unavailable');
          },
        });
        await next();
      });
      app.use(obs());
      app.get('/ok', (c) => c.json({ fine: true }, 201, { 'x-app': 'yes' }));
      for (let i = 0; i < 3; i++) {
        const res = await app.request('/ok');
        expect(res.status).toBe(201);
        expect(res.headers.get('x-app')).toBe('yes');
        expect(await res.json()).toEqual({ fine: true });
      }
      const lines = warn.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('@obs/hono'));
      expect(lines).toEqual([expect.stringContaining('raw request unavailable')]);
      await local.handle.flush();
      expect(local.server.spans()).toHaveLength(0);
    } finally {
      warn.mockRestore();
    }
  });

  it('a HEAD answered by the runtime, whose body nobody reads, still ends its trace when the response closes', async () => {
    const app = createApp();
    const server: ServerType = await new Promise((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/tickets/4`, { method: 'HEAD' });
      expect(res.status).toBe(200);
      await local.handle.flush();
      const { root } = await traceOf(local.server, res.headers.get('x-obs-trace-id'), 1);
      expect(root.name).toBe('HEAD /tickets/:id');
      expect(root.attributes['http.response.status_code']).toBe(200);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

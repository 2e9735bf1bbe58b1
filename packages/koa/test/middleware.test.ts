/**
 * `@obs/koa` on Koa 3 and 2 with `@koa/router` over real HTTP, against the local obs server: one
 * trace per request, the root named after the router's pattern (prefixes included) with redacted
 * input and output, identify after app-level auth on every span, server-sent events (a piped stream
 * and the raw response) reassembled, the 4xx/5xx rule for thrown errors and for errors an
 * error-handling middleware answers, the trace-id header, health checks ignored, unmatched requests
 * named `<unmatched>`, and an adapter bug that leaves every request served unchanged.
 */
import { getRequestObservation, obsMiddleware, type ObsKoaOptions } from '@obs/koa';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { routes } from './fixtures.js';
import { initTestObs, KOA_VERSIONS, listen, type Running, traceOf } from './harness.js';

const local = setupObsServer({ init: initTestObs });

const identify: ObsKoaOptions['identify'] = (ctx) => ({
  userId: (ctx.state.user as { id?: string } | undefined)?.id ?? 'anonymous',
  sessionId: ctx.get('x-session') || undefined,
});

const chat = (user?: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(user ? { 'x-user': user } : {}), 'x-session': 's-1' },
  body: JSON.stringify({ message: 'hello', password: 'hunter2' }),
});

describe.each(KOA_VERSIONS)('$name', ({ Koa }) => {
  let app: Running;
  beforeAll(async () => {
    const koa = new Koa();
    koa.silent = true;
    koa.use(obsMiddleware({ identify }));
    routes(koa);
    app = await listen(koa);
  });
  afterAll(async () => app?.close());

  it('one trace per request: the prefixed route pattern, the parsed body redacted, the body’s value, identify after auth on every span', async () => {
    const res = await app.fetch('/api/chat/7', chat('u-7'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ answer: 'echo: hello' });
    await local.handle.flush();
    const { root, all } = await traceOf(local.server, res.headers.get('x-obs-trace-id'), 2);
    expect(root.name).toBe('POST /api/chat/:id');
    expect(root.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/api/chat/:id',
      'url.path': '/api/chat/7',
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

  it('a request the route’s auth refused: traced, identified anonymous, a 401 that is the client’s; no body records the query', async () => {
    const res = await app.fetch('/api/chat/7', chat());
    expect(res.status).toBe(401);
    await res.text();
    const profile = await app.fetch('/api/profile?tab=2');
    expect(await profile.json()).toEqual({ greeting: 'echo: profile' });
    await local.handle.flush();
    const { root } = await traceOf(local.server, res.headers.get('x-obs-trace-id'), 1);
    expect(root.name).toBe('POST /api/chat/:id');
    expect(root.attributes['user.id']).toBe('anonymous');
    expect(root.attributes['obs.observation.level']).toBeUndefined();
    expect(root.attributes['obs.observation.status_message']).toBe('who are you?');
    const { root: p } = await traceOf(local.server, profile.headers.get('x-obs-trace-id'), 2);
    expect(JSON.parse(p.attributes['obs.observation.input'] as string)).toEqual({ tab: '2' });
  });

  it('server-sent events piped from a stream and written to the raw response, and a text body: reassembled as sent', async () => {
    const sse = await app.fetch('/sse');
    const events = await sse.text();
    expect(events).toBe('data: echo: one\n\ndata: echo: two\n\ndata: echo: three\n\n');
    const raw = await app.fetch('/raw-sse');
    expect(await raw.text()).toBe('data: a\n\ndata: b\n\n');
    const text = await app.fetch('/text');
    expect(await text.text()).toBe('plain words');
    await local.handle.flush();
    const { root: s, all } = await traceOf(local.server, sse.headers.get('x-obs-trace-id'), 4);
    expect(s.name).toBe('GET /sse');
    expect(s.attributes['obs.observation.output']).toBe(events);
    expect(all.filter((x) => x.name === 'answer' && x.parentSpanId === s.spanId)).toHaveLength(3);
    const { root: r } = await traceOf(local.server, raw.headers.get('x-obs-trace-id'), 1);
    expect(r.attributes['obs.observation.output']).toBe('data: a\n\ndata: b\n\n');
    const { root: t } = await traceOf(local.server, text.headers.get('x-obs-trace-id'), 1);
    expect(t.attributes['obs.observation.output']).toBe('plain words');
  });

  it('errors: a crash is ERROR with its message, `ctx.throw(404)` is the client’s', async () => {
    const crash = await app.fetch('/crash');
    expect(crash.status).toBe(500);
    await crash.text();
    const missing = await app.fetch('/tickets/9');
    expect(missing.status).toBe(404);
    await missing.text();
    await local.handle.flush();
    const { root: c } = await traceOf(local.server, crash.headers.get('x-obs-trace-id'), 1);
    expect(c.name).toBe('GET /crash');
    expect(c.attributes).toMatchObject({
      'obs.observation.level': 'ERROR',
      'obs.observation.status_message': 'database on fire',
      'http.response.status_code': 500,
    });
    expect(c.status.code).toBe(2);
    const { root: m } = await traceOf(local.server, missing.headers.get('x-obs-trace-id'), 1);
    expect(m.name).toBe('GET /tickets/:id');
    expect(m.attributes['obs.observation.level']).toBeUndefined();
    expect(m.attributes['obs.observation.status_message']).toBe('no such ticket');
  });

  it('errors an error-handling middleware answers with a body of its own and reports: the original error, judged by the status sent', async () => {
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
    expect(JSON.parse(d.attributes['obs.observation.output'] as string)).toEqual({ error: 'billing is down' });
    const { root: u } = await traceOf(local.server, unpaid.headers.get('x-obs-trace-id'), 1);
    expect(u.attributes['obs.observation.level']).toBeUndefined();
    expect(u.attributes['obs.observation.status_message']).toBe('invoice 7 unpaid');
  });

  it('health checks make no trace; a request no route matched is `METHOD <unmatched>` with its path', async () => {
    const health = await app.fetch('/health');
    expect(await health.text()).toBe('ok');
    expect(health.headers.get('x-obs-trace-id')).toBeNull();
    const nowhere = await app.fetch('/nowhere/7', { method: 'DELETE' });
    expect(nowhere.status).toBe(404);
    await nowhere.text();
    await local.handle.flush();
    const { root } = await traceOf(local.server, nowhere.headers.get('x-obs-trace-id'), 1);
    expect(root.name).toBe('DELETE <unmatched>');
    expect(root.attributes['url.path']).toBe('/nowhere/7');
    expect(local.server.spans()).toHaveLength(1);
  });
});

describe('options and failures (Koa 3)', () => {
  const { Koa } = KOA_VERSIONS[0]!;

  it('captureInput and captureOutput get the ctx; traceIdHeader, name, and the request’s handle in a handler', async () => {
    const koa = new Koa();
    koa.use(
      obsMiddleware({
        identify,
        traceIdHeader: 'x-trace',
        name: (ctx) => `chat ${ctx.path}`,
        captureInput: (ctx) => ({ user: ctx.get('x-user'), method: ctx.method }),
        captureOutput: (body, ctx) => ({ status: ctx.status, body }),
      }),
    );
    koa.use(async (ctx) => {
      getRequestObservation(ctx)?.observation.update({ metadata: { plan: 'pro' } });
      ctx.body = { seen: getRequestObservation(ctx)?.traceId };
    });
    const app = await listen(koa);
    try {
      const res = await app.fetch('/anything', { headers: { 'x-user': 'u-9' } });
      expect(res.headers.get('x-obs-trace-id')).toBeNull();
      const traceId = res.headers.get('x-trace');
      expect(await res.json()).toEqual({ seen: traceId });
      await local.handle.flush();
      const { root } = await traceOf(local.server, traceId, 1);
      expect(root.name).toBe('chat /anything');
      expect(root.attributes['obs.observation.metadata.plan']).toBe('pro');
      expect(JSON.parse(root.attributes['obs.observation.input'] as string)).toEqual({ user: 'u-9', method: 'GET' });
      expect(JSON.parse(root.attributes['obs.observation.output'] as string)).toEqual({ status: 200, body: { seen: traceId } });
    } finally {
      await app.close();
    }
  });

  it('a traceIdHeader written in mixed case survives Koa’s error answer (which removes every header)', async () => {
    const koa = new Koa();
    koa.silent = true;
    koa.use(obsMiddleware({ traceIdHeader: 'X-Trace-Id' }));
    koa.use(() => {
      throw new Error('boom');
    });
    const app = await listen(koa);
    try {
      const res = await app.fetch('/crash');
      expect(res.status).toBe(500);
      const traceId = res.headers.get('x-trace-id');
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      await local.handle.flush();
      const { root } = await traceOf(local.server, traceId, 1);
      expect(root.name).toBe('GET <unmatched>');
    } finally {
      await app.close();
    }
  });

  it('an adapter bug (obs cannot read the request’s app) logs one line and serves every request unchanged', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const koa = new Koa();
    // Breaks what obs reads first thing, before obs's own middleware runs.
    koa.use(async (ctx, next) => {
      Object.defineProperty(ctx, 'app', {
        get() {
          throw new TypeError('app unavailable');
        },
      });
      await next();
    });
    koa.use(obsMiddleware());
    koa.use((ctx) => {
      ctx.status = 201;
      ctx.set('x-app', 'yes');
      ctx.body = { fine: true };
    });
    const app = await listen(koa);
    try {
      for (let i = 0; i < 3; i++) {
        const res = await app.fetch('/ok');
        expect(res.status).toBe(201);
        expect(res.headers.get('x-app')).toBe('yes');
        expect(await res.json()).toEqual({ fine: true });
      }
      const lines = warn.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('@obs/koa'));
      expect(lines).toEqual([expect.stringContaining('app unavailable')]);
    } finally {
      warn.mockRestore();
      await app.close();
    }
  });
});

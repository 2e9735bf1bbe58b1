/**
 * `@obs/koa` on Koa 3 and 2 with `@koa/router` over real HTTP, against the local obs server: the
 * Node.js adapters' shared scenarios on the Koa app (one trace per request, the root named after
 * the router's pattern, prefixes included, with redacted input and output, identify after
 * app-level auth on every span, server-sent events, a piped stream and the raw response,
 * reassembled, the 4xx/5xx rule for thrown errors and for errors an error-handling middleware
 * answers and reports, health checks ignored, unmatched requests named `<unmatched>`) and
 * `ctx.throw`'s message; then the options given the ctx, the trace-id header, and an adapter bug
 * that leaves every request served unchanged.
 */
import { getRequestObservation, obsMiddleware, type ObsKoaOptions } from '@obs/koa';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chatRequest, expectServedUnchanged, nodeAdapterScenarios } from '../../../tests/support/node-adapter-scenarios.js';
import { routes } from './fixtures.js';
import { initTestObs, KOA_VERSIONS, listen, type Running, traceOf } from './harness.js';

const local = setupObsServer({ init: initTestObs });

const identify: ObsKoaOptions['identify'] = (ctx) => ({
  userId: (ctx.state.user as { id?: string } | undefined)?.id ?? 'anonymous',
  sessionId: ctx.get('x-session') || undefined,
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

  nodeAdapterScenarios(local, () => app);

  it('`ctx.throw(401, message)` in the route’s auth: the refused request’s status message, still the client’s', async () => {
    const res = await app.fetch('/api/chat/7', chatRequest());
    expect(res.status).toBe(401);
    await res.text();
    await local.handle.flush();
    const { root } = await traceOf(local.server, res.headers.get('x-obs-trace-id'), 1);
    expect(root.attributes['obs.observation.level']).toBeUndefined();
    expect(root.attributes['obs.observation.status_message']).toBe('who are you?');
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
      await expectServedUnchanged(app, warn, '@obs/koa', 'app unavailable');
    } finally {
      warn.mockRestore();
      await app.close();
    }
  });
});

/**
 * The low end of the 7.x range: a React Router 7.9.5 framework-mode app (floors/react-router-7,
 * Vite 5, `unstable_instrumentations = [obsInstrumentation()]` in entry.server), built once by its
 * own `react-router build` and served twice by its `react-router-serve`: as is (the instrumentation
 * alone, which React Router 7 tells neither the route nor the status of a request) and with
 * `obsMiddleware()` in the root route (which tells both). Read back from the local obs server.
 */
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { appEnv, obsWarnings, type ServedApp, serveApp, spanNamed, traceRootedAt } from '../../../tests/support/framework-app.js';
import { binOf, FLOOR_7_DIR } from './global-setup.js';

const local = setupObsServer();
let plain: ServedApp;
let withMiddleware: ServedApp;

beforeAll(async () => {
  const serve = (extra: Record<string, string>) =>
    serveApp(
      (port) => [binOf(FLOOR_7_DIR, '@react-router/serve', 'bin.js'), 'build/server/index.js', String(port)],
      FLOOR_7_DIR,
      appEnv({ ...local.server.env, OBS_FLUSH_INTERVAL: '0.1', ...extra }),
    );
  [plain, withMiddleware] = await Promise.all([serve({}), serve({ OBS_TEST_MIDDLEWARE: '1' })]);
});

afterAll(async () => {
  await Promise.all([plain?.stop(), withMiddleware?.stop()]);
});

/** The one trace the request made: its spans once `count` arrived, exactly `count`. */
async function trace(rootName: string, count: number): Promise<DecodedSpan[]> {
  const spans = await traceRootedAt(local.server, rootName, count);
  await new Promise((r) => setTimeout(r, 300));
  const roots = local.server.spans().filter((s) => !s.parentSpanId);
  expect(roots.map((s) => s.name)).toEqual([rootName]);
  expect(local.server.spansByTrace(spans[0]!.traceId)).toHaveLength(count);
  return spans;
}

describe('obsInstrumentation() alone on React Router 7.9.5', () => {
  it('builds with no warning from obs', () => {
    expect(obsWarnings(inject('majorFloorBuild').log)).toEqual([]);
  });

  it('names a document request by the pattern its loaders were told, each loader a child, the model call inside its loader; no status', async () => {
    const res = await fetch(`${plain.url}/chat/42`, { headers: { 'x-user-id': 'user-7' } });
    expect(await res.text()).toContain('You asked: hello 42');
    const spans = await trace('GET /chat/:id', 3);
    const root = spanNamed(spans, 'GET /chat/:id');
    expect(root.attributes).toMatchObject({ 'http.route': '/chat/:id', 'url.path': '/chat/42', 'user.id': 'user-7' });
    expect(root.attributes['http.response.status_code']).toBeUndefined();
    expect(root.attributes['obs.observation.level']).toBeUndefined();
    const chatLoader = spanNamed(spans, 'loader routes/chat');
    expect(chatLoader.parentSpanId).toBe(root.spanId);
    expect(JSON.parse(String(chatLoader.attributes['obs.observation.input']))).toEqual({ params: { id: '42' } });
    expect(chatLoader.attributes['obs.observation.metadata.pattern']).toBe('chat/:id');
    expect(spanNamed(spans, 'answer').parentSpanId).toBe(chatLoader.spanId);
  });

  it('names a single-fetch .data request and an action by their route; a redirect answered is not an error', async () => {
    expect((await fetch(`${plain.url}/chat/42.data`)).status).toBe(200);
    await trace('GET /chat/:id', 3);
    local.server.reset();
    const res = await fetch(`${plain.url}/chat/7`, { method: 'POST', body: new URLSearchParams({ message: 'hi there' }) });
    expect(res.status).toBe(200);
    const spans = await trace('POST /chat/:id', 5);
    const action = spanNamed(spans, 'action routes/chat');
    expect(action.parentSpanId).toBe(spanNamed(spans, 'POST /chat/:id').spanId);
    expect(spans.find((s) => s.name === 'answer' && s.parentSpanId === action.spanId)?.attributes['obs.observation.output']).toBe(
      'You asked: hi there',
    );
    local.server.reset();
    expect((await fetch(`${plain.url}/go`, { method: 'POST', redirect: 'manual' })).status).toBe(302);
    const [go] = (await trace('POST /go', 2)).filter((s) => !s.parentSpanId);
    expect(go!.attributes['http.response.status_code']).toBeUndefined();
    expect(go!.attributes['obs.observation.level']).toBeUndefined();
  });

  it('marks a throwing loader ERROR and its request 500, as React Router answers it', async () => {
    expect((await fetch(`${plain.url}/boom`)).status).toBe(500);
    const spans = await trace('GET /boom', 2);
    expect(spanNamed(spans, 'GET /boom').attributes).toMatchObject({ 'http.response.status_code': 500, 'obs.observation.level': 'ERROR' });
    expect(String(spanNamed(spans, 'loader routes/boom').attributes['obs.observation.status_message'])).toContain('loader exploded');
  });

  it('names a request no handler of ours saw METHOD alone: a route without loader, an unmatched path (never the raw path)', async () => {
    expect((await fetch(`${plain.url}/about`)).status).toBe(200);
    const [about] = await trace('GET', 1);
    expect(about!.attributes).toMatchObject({ 'url.path': '/about', 'obs.trace.name': 'GET' });
    expect(about!.attributes['http.route']).toBeUndefined();
    local.server.reset();
    expect((await fetch(`${plain.url}/no/such/page`)).status).toBe(404);
    const [unmatched] = await trace('GET', 1);
    expect(unmatched!.attributes['url.path']).toBe('/no/such/page');
  });
});

describe('obsInstrumentation() with obsMiddleware() on React Router 7.9.5', () => {
  it('records the route and status of every matched request, a route without loader too', async () => {
    expect((await fetch(`${withMiddleware.url}/chat/42`)).status).toBe(200);
    const spans = await trace('GET /chat/:id', 3);
    expect(spanNamed(spans, 'GET /chat/:id').attributes).toMatchObject({ 'http.route': '/chat/:id', 'http.response.status_code': 200 });
    local.server.reset();
    expect((await fetch(`${withMiddleware.url}/about`)).status).toBe(200);
    const [about] = await trace('GET /about', 1);
    expect(about!.attributes).toMatchObject({ 'http.route': '/about', 'http.response.status_code': 200 });
  });

  it('records a redirect, a 500 with the loader error, and names an unmatched path <unmatched>', async () => {
    expect((await fetch(`${withMiddleware.url}/go`, { method: 'POST', redirect: 'manual' })).status).toBe(302);
    const go = spanNamed(await trace('POST /go', 2), 'POST /go');
    expect(go.attributes['http.response.status_code']).toBe(302);
    expect(go.attributes['obs.observation.level']).toBeUndefined();
    local.server.reset();
    expect((await fetch(`${withMiddleware.url}/boom`)).status).toBe(500);
    const spans = await trace('GET /boom', 2);
    expect(spanNamed(spans, 'GET /boom').attributes).toMatchObject({ 'http.response.status_code': 500, 'obs.observation.level': 'ERROR' });
    expect(spanNamed(spans, 'loader routes/boom').attributes['obs.observation.level']).toBe('ERROR');
    local.server.reset();
    expect((await fetch(`${withMiddleware.url}/no/such/page`)).status).toBe(404);
    await trace('GET <unmatched>', 1);
  });
});

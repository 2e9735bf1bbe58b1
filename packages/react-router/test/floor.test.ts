/**
 * The low end of the peer range: a React Router 8.1.0 framework-mode app (floors/react-router,
 * Vite 7, `instrumentations = [obsInstrumentation()]` in entry.server), built once by its
 * own `react-router build` and served by its `react-router-serve`, read back from the local obs
 * server: a document request with its loaders, an action, a failing loader, an unmatched path.
 */
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { appEnv, obsWarnings, type ServedApp, serveApp, spanNamed, traceRootedAt } from '../../../tests/support/framework-app.js';
import { binOf, FLOOR_DIR } from './global-setup.js';

const local = setupObsServer();
let app: ServedApp;

beforeAll(async () => {
  app = await serveApp(
    (port) => [binOf(FLOOR_DIR, '@react-router/serve', 'bin.cjs'), 'build/server/index.js', String(port)],
    FLOOR_DIR,
    appEnv({ ...local.server.env, OBS_FLUSH_INTERVAL: '0.1' }),
  );
});

afterAll(async () => {
  await app?.stop();
});

describe('obsInstrumentation() on React Router 8.1.0', () => {
  it('builds with no warning from obs', () => {
    expect(obsWarnings(inject('floorBuild').log)).toEqual([]);
  });

  it('makes a document request one trace: root named by the route pattern, each loader a child, the model call inside its loader', async () => {
    const res = await fetch(`${app.url}/chat/42`, { headers: { 'x-user-id': 'user-7' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('You asked: hello 42');
    const spans = await traceRootedAt(local.server, 'GET /chat/:id', 4);
    const root = spanNamed(spans, 'GET /chat/:id');
    expect(root.attributes).toMatchObject({ 'http.route': '/chat/:id', 'http.response.status_code': 200, 'user.id': 'user-7' });
    const chatLoader = spanNamed(spans, 'loader routes/chat');
    expect(spanNamed(spans, 'loader root').parentSpanId).toBe(root.spanId);
    expect(chatLoader.parentSpanId).toBe(root.spanId);
    expect(JSON.parse(String(chatLoader.attributes['obs.observation.input']))).toEqual({ params: { id: '42' } });
    expect(spanNamed(spans, 'answer').parentSpanId).toBe(chatLoader.spanId);
    expect(spans).toHaveLength(4);
  });

  it('records an action as a child, with the output of the generation under it', async () => {
    const res = await fetch(`${app.url}/chat/7`, { method: 'POST', body: new URLSearchParams({ message: 'hi there' }) });
    expect(res.status).toBe(200);
    const spans = await traceRootedAt(local.server, 'POST /chat/:id', 6);
    const action = spanNamed(spans, 'action routes/chat');
    expect(action.parentSpanId).toBe(spanNamed(spans, 'POST /chat/:id').spanId);
    const generation = spans.find((s) => s.name === 'answer' && s.parentSpanId === action.spanId);
    expect(generation?.attributes['obs.observation.output']).toBe('You asked: hi there');
  });

  it('marks a throwing loader and its 500 as errors, and names an unmatched path <unmatched>', async () => {
    expect((await fetch(`${app.url}/boom`)).status).toBe(500);
    const spans = await traceRootedAt(local.server, 'GET /boom', 3);
    expect(spanNamed(spans, 'GET /boom').attributes).toMatchObject({ 'http.response.status_code': 500, 'obs.observation.level': 'ERROR' });
    expect(String(spanNamed(spans, 'loader routes/boom').attributes['obs.observation.status_message'])).toContain('loader exploded');
    expect((await fetch(`${app.url}/no/such/page`)).status).toBe(404);
    await traceRootedAt(local.server, 'GET <unmatched>', 1);
  });
});

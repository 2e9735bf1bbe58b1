/**
 * A real React Router 8 framework-mode app (examples/react-router, the demo's app:
 * `instrumentations = [obsInstrumentation()]` in entry.server), built once by `react-router build` (Vite) and served by `react-router-serve`,
 * read back from the local obs server: document and data requests, actions, a streamed resource
 * route, a failing loader and an unmatched path.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { appEnv, obsWarnings, type ServedApp, serveApp, spanNamed, traceRootedAt } from '../../../tests/support/framework-app.js';
import { bundleCopies } from '../../../tests/support/bundle-copies.js';
import { APP_DIR, binOf } from './global-setup.js';

const local = setupObsServer();
let app: ServedApp;

beforeAll(async () => {
  const serve = binOf(APP_DIR, '@react-router/serve', 'bin.cjs');
  app = await serveApp(
    (port) => [serve, 'build/server/index.js', String(port)],
    APP_DIR,
    appEnv({ ...local.server.env, OBS_FLUSH_INTERVAL: '0.1' }),
  );
});

afterAll(async () => {
  await app?.stop();
});

describe('react-router build', () => {
  it('builds with no warning from obs and one copy of @obs/core and @opentelemetry/api in the server bundle', () => {
    const { log } = inject('build');
    expect(obsWarnings(log)).toEqual([]);
    const dir = join(APP_DIR, 'build/server');
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(join(dir, f), 'utf8'));
    expect(bundleCopies(files)).toEqual({ core: 1, api: 1 });
  });
});

describe('obsInstrumentation()', () => {
  it('makes a document request one trace: root named by the route pattern, each loader a child, the model call inside its loader', async () => {
    const res = await fetch(`${app.url}/chat/42`, { headers: { 'x-user-id': 'user-7' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('You asked: hello 42');
    const spans = await traceRootedAt(local.server, 'GET /chat/:id', 4);
    const root = spanNamed(spans, 'GET /chat/:id');
    expect(root.attributes).toMatchObject({
      'http.route': '/chat/:id',
      'url.path': '/chat/42',
      'http.response.status_code': 200,
      'user.id': 'user-7',
    });
    const rootLoader = spanNamed(spans, 'loader root');
    const chatLoader = spanNamed(spans, 'loader routes/chat');
    expect(rootLoader.parentSpanId).toBe(root.spanId);
    expect(chatLoader.parentSpanId).toBe(root.spanId);
    expect(JSON.parse(String(chatLoader.attributes['obs.observation.input']))).toEqual({ params: { id: '42' } });
    const generation = spanNamed(spans, 'answer');
    expect(generation.attributes['obs.observation.type']).toBe('generation');
    expect(generation.parentSpanId).toBe(chatLoader.spanId);
    expect(generation.attributes['user.id']).toBe('user-7');
    expect(spans).toHaveLength(4);
  });

  it('records an action as a child, its generation under the action, then the loaders', async () => {
    const res = await fetch(`${app.url}/chat/7`, { method: 'POST', body: new URLSearchParams({ message: 'hi there' }) });
    expect(res.status).toBe(200);
    const spans = await traceRootedAt(local.server, 'POST /chat/:id', 6);
    const root = spanNamed(spans, 'POST /chat/:id');
    // React Router's instrumentations see no request body (read-only by design): the form is the generation's input.
    expect(root.attributes['obs.observation.input']).toBeUndefined();
    const action = spanNamed(spans, 'action routes/chat');
    expect(action.parentSpanId).toBe(root.spanId);
    const generations = spans.filter((s) => s.name === 'answer');
    expect(generations.map((g) => g.parentSpanId).sort()).toEqual([action.spanId, spanNamed(spans, 'loader routes/chat').spanId].sort());
    expect(generations.find((g) => g.parentSpanId === action.spanId)!.attributes['obs.observation.output']).toBe('You asked: hi there');
  });

  it('names a single-fetch data request (/chat/9.data) after its route, like the document request', async () => {
    const res = await fetch(`${app.url}/chat/9.data`);
    expect(res.status).toBe(200);
    const spans = await traceRootedAt(local.server, 'GET /chat/:id', 3);
    expect(spanNamed(spans, 'GET /chat/:id').attributes['url.path']).toBe('/chat/9.data');
    expect(spans.map((s) => s.name).sort()).toContain('loader routes/chat');
  });

  it('streams a resource route to the client while the root records its status', async () => {
    const res = await fetch(`${app.url}/api/stream`);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await res.text()).toBe('data: one\n\ndata: two\n\ndata: three\n\n');
    const spans = await traceRootedAt(local.server, 'GET /api/stream', 3);
    const root = spanNamed(spans, 'GET /api/stream');
    expect(root.attributes['http.response.status_code']).toBe(200);
    // The model's stream starts in the loader, as an AI SDK call does, and outlives it.
    const generation = spanNamed(spans, 'tokens');
    expect(generation.parentSpanId).toBe(spanNamed(spans, 'loader routes/stream').spanId);
    expect(generation.attributes['obs.observation.output']).toBe('onetwothree');
    expect(spans).toHaveLength(3);
  });

  it('marks a throwing loader as an error, and its request as the 500 it answered', async () => {
    const res = await fetch(`${app.url}/boom`);
    expect(res.status).toBe(500);
    const spans = await traceRootedAt(local.server, 'GET /boom', 3);
    const root = spanNamed(spans, 'GET /boom');
    expect(root.attributes['http.response.status_code']).toBe(500);
    expect(root.attributes['obs.observation.level']).toBe('ERROR');
    const loader = spanNamed(spans, 'loader routes/boom');
    expect(loader.attributes['obs.observation.level']).toBe('ERROR');
    expect(String(loader.attributes['obs.observation.status_message'])).toContain('loader exploded');
  });

  it('names a request no route matched <unmatched>', async () => {
    const res = await fetch(`${app.url}/no/such/page`);
    expect(res.status).toBe(404);
    const spans = await traceRootedAt(local.server, 'GET <unmatched>', 1);
    expect(spanNamed(spans, 'GET <unmatched>').attributes['url.path']).toBe('/no/such/page');
  });
});

/**
 * A real React Router 8 framework-mode app (examples/react-router, the demo's app:
 * `instrumentations = [obsInstrumentation()]` in entry.server), built once by `react-router build` (Vite) and served by `react-router-serve`,
 * read back from the local obs server: the checks of every 8.x build (test/checks.ts: no build
 * warning, a document request, an action, a failing loader, an unmatched path), one copy of obs in
 * the server bundle, a data request and a streamed resource route.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleCopies } from '../../../tests/support/bundle-copies.js';
import { serveWithObs, spanNamed, traceRootedAt } from '../../../tests/support/framework-app.js';
import { instrumentationChecks } from './checks.js';
import { APP_DIR, binOf } from './global-setup.js';

const suite = serveWithObs((port) => [binOf(APP_DIR, '@react-router/serve', 'bin.cjs'), 'build/server/index.js', String(port)], APP_DIR);

describe('react-router build', () => {
  it('puts one copy of @obs/core and @opentelemetry/api in the server bundle', () => {
    const dir = join(APP_DIR, 'build/server');
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(join(dir, f), 'utf8'));
    expect(bundleCopies(files)).toEqual({ core: 1, api: 1 });
  });
});

describe('obsInstrumentation()', () => {
  instrumentationChecks(suite, 'build');

  it('names a single-fetch data request (/chat/9.data) after its route, like the document request', async () => {
    const res = await fetch(`${suite.app.url}/chat/9.data`);
    expect(res.status).toBe(200);
    const spans = await traceRootedAt(suite.server, 'GET /chat/:id', 3);
    expect(spanNamed(spans, 'GET /chat/:id').attributes['url.path']).toBe('/chat/9.data');
    expect(spans.map((s) => s.name).sort()).toContain('loader routes/chat');
  });

  it('streams a resource route to the client while the root records its status', async () => {
    const res = await fetch(`${suite.app.url}/api/stream`);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await res.text()).toBe('data: one\n\ndata: two\n\ndata: three\n\n');
    const spans = await traceRootedAt(suite.server, 'GET /api/stream', 3);
    const root = spanNamed(spans, 'GET /api/stream');
    expect(root.attributes['http.response.status_code']).toBe(200);
    // The model's stream starts in the loader, as an AI SDK call does, and outlives it.
    const generation = spanNamed(spans, 'tokens');
    expect(generation.parentSpanId).toBe(spanNamed(spans, 'loader routes/stream').spanId);
    expect(generation.attributes['obs.observation.output']).toBe('onetwothree');
    expect(spans).toHaveLength(3);
  });
});

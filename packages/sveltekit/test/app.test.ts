/**
 * A real SvelteKit 3 app (test/app: `handle = obsHandle()` and `handleError = obsHandleError()` in
 * hooks.server, SvelteKit's own tracing on), built once by `vite build` with adapter-node and served
 * by `node build`, read back from the local obs server: pages with load functions, a form action,
 * `+server` endpoints (JSON and a stream), a failing load and an unmatched path.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bundleCopies } from '../../../tests/support/bundle-copies.js';
import { appEnv, obsWarnings, type ServedApp, serveApp, spanNamed, traceRootedAt } from '../../../tests/support/framework-app.js';
import { APP_DIR } from './global-setup.js';

const local = setupObsServer();
let app: ServedApp;

beforeAll(async () => {
  app = await serveApp(() => ['build/index.js'], APP_DIR, appEnv({ ...local.server.env, OBS_FLUSH_INTERVAL: '0.1' }));
});

afterAll(async () => {
  await app?.stop();
});

/** Every span's parent is a span of the same trace, but for its one root. */
function orphans(spans: DecodedSpan[]): string[] {
  const ids = new Set(spans.map((s) => s.spanId));
  return spans.filter((s) => s.parentSpanId && !ids.has(s.parentSpanId)).map((s) => s.name);
}

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(join(dir, f), 'utf8'));
}

describe('vite build', () => {
  it('builds with no warning from obs and one copy of @obs/core and @opentelemetry/api in the server bundle', () => {
    const { log } = inject('build');
    expect(obsWarnings(log)).toEqual([]);
    expect(bundleCopies(jsFiles(join(APP_DIR, 'build/server')))).toEqual({ core: 1, api: 1 });
  });
});

describe('obsHandle()', () => {
  it("names a page request after SvelteKit's route id, with its load and the model call inside it", async () => {
    const res = await fetch(`${app.url}/chat/42`, { headers: { 'x-user-id': 'user-7' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('You asked: hello 42');
    const traceId = res.headers.get('x-obs-trace-id')!;
    const spans = await local.server.waitFor(() =>
      local.server.spansByTrace(traceId).some((s) => s.name === 'answer') ? local.server.spansByTrace(traceId) : undefined,
    );
    const root = spanNamed(spans, 'GET /chat/[id]');
    expect(root.parentSpanId).toBeUndefined();
    expect(root.attributes).toMatchObject({
      'http.route': '/chat/[id]',
      'url.path': '/chat/42',
      'http.response.status_code': 200,
      'user.id': 'user-7',
    });
    const load = spanNamed(spans, 'sveltekit.load');
    expect(load.attributes['sveltekit.load.node_id']).toContain('chat/[id]/+page.server');
    const generation = spanNamed(spans, 'answer');
    expect(generation.parentSpanId).toBe(load.spanId);
    expect(generation.attributes['user.id']).toBe('user-7');
    expect(orphans(spans)).toEqual([]);
  });

  it('records a form action: the form as input, the action span and its generation', async () => {
    const res = await fetch(`${app.url}/chat/7`, {
      method: 'POST',
      // adapter-node 6 takes its own origin as https://<host> unless built with `origin`: the
      // form's page, as a browser would send it, for SvelteKit's CSRF check.
      headers: { origin: app.url.replace('http:', 'https:'), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ message: 'hi there' }).toString(),
    });
    expect(res.status).toBe(200);
    const spans = await traceRootedAt(local.server, 'POST /chat/[id]', 4);
    const root = spanNamed(spans, 'POST /chat/[id]');
    expect(JSON.parse(String(root.attributes['obs.observation.input']))).toEqual({ message: 'hi there' });
    const action = spanNamed(spans, 'sveltekit.form_action');
    const generation = spans.find((s) => s.name === 'answer' && s.parentSpanId === action.spanId);
    expect(generation?.attributes['obs.observation.output']).toBe('You asked: hi there');
    expect(orphans(spans)).toEqual([]);
  });

  it('traces a +server endpoint with its JSON input and output', async () => {
    const res = await fetch(`${app.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'ping' }),
    });
    const body = await res.json();
    expect(body).toEqual({ answer: 'You asked: ping' });
    const spans = await traceRootedAt(local.server, 'POST /api/chat', 3);
    const root = spanNamed(spans, 'POST /api/chat');
    expect(JSON.parse(String(root.attributes['obs.observation.input']))).toEqual({ message: 'ping' });
    expect(JSON.parse(String(root.attributes['obs.observation.output']))).toEqual(body);
    expect(spanNamed(spans, 'answer').parentSpanId).toBe(spanNamed(spans, 'sveltekit.endpoint').spanId);
  });

  it('streams server-sent events through, the root recording the reassembled text', async () => {
    const res = await fetch(`${app.url}/api/stream`);
    expect(await res.text()).toBe('data: one\n\ndata: two\n\ndata: three\n\n');
    const spans = await traceRootedAt(local.server, 'GET /api/stream', 3);
    expect(spanNamed(spans, 'GET /api/stream').attributes['obs.observation.output']).toBe('data: one\n\ndata: two\n\ndata: three\n\n');
    expect(spanNamed(spans, 'tokens').attributes['obs.observation.output']).toBe('onetwothree');
  });

  it("records a throwing load's error through handleError on the request's root", async () => {
    const res = await fetch(`${app.url}/boom`);
    expect(res.status).toBe(500);
    const spans = await traceRootedAt(local.server, 'GET /boom', 2);
    const root = spanNamed(spans, 'GET /boom');
    expect(root.attributes['obs.observation.level']).toBe('ERROR');
    expect(String(root.attributes['obs.observation.status_message'])).toContain('load exploded');
  });

  it('names a request no route matched <unmatched>, a 404 that is no error', async () => {
    const res = await fetch(`${app.url}/no/such/page`);
    expect(res.status).toBe(404);
    const spans = await traceRootedAt(local.server, 'GET <unmatched>', 1);
    expect(spanNamed(spans, 'GET <unmatched>').attributes['obs.observation.level']).toBeUndefined();
  });
});

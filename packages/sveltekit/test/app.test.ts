/**
 * A real SvelteKit 3 app (test/app: `handle = obsHandle()` and `handleError = obsHandleError()` in
 * hooks.server, SvelteKit's own tracing on), built once by `vite build` with adapter-node and served
 * by `node build`, read back from the local obs server: the checks of every build (test/checks.ts:
 * no build warning, a page with a load, a `+server` endpoint, a failing load and an unmatched
 * path), one copy of obs in the server bundle, a form action and a streamed `+server` endpoint.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleCopies } from '../../../tests/support/bundle-copies.js';
import { serveWithObs, spanNamed, traceRootedAt } from '../../../tests/support/framework-app.js';
import { handleChecks, orphans } from './checks.js';
import { APP_DIR } from './global-setup.js';

const suite = serveWithObs(() => ['build/index.js'], APP_DIR);

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(join(dir, f), 'utf8'));
}

describe('vite build', () => {
  it('puts one copy of @obs/core and @opentelemetry/api in the server bundle', () => {
    expect(bundleCopies(jsFiles(join(APP_DIR, 'build/server')))).toEqual({ core: 1, api: 1 });
  });
});

describe('obsHandle()', () => {
  handleChecks(suite, { build: 'build', kitSpans: true });

  it('records a form action: the form as input, the action span and its generation', async () => {
    const res = await fetch(`${suite.app.url}/chat/7`, {
      method: 'POST',
      // adapter-node 6 takes its own origin as https://<host> unless built with `origin`: the
      // form's page, as a browser would send it, for SvelteKit's CSRF check.
      headers: { origin: suite.app.url.replace('http:', 'https:'), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ message: 'hi there' }).toString(),
    });
    expect(res.status).toBe(200);
    const spans = await traceRootedAt(suite.server, 'POST /chat/[id]', 4);
    const root = spanNamed(spans, 'POST /chat/[id]');
    expect(JSON.parse(String(root.attributes['obs.observation.input']))).toEqual({ message: 'hi there' });
    const action = spanNamed(spans, 'sveltekit.form_action');
    const generation = spans.find((s) => s.name === 'answer' && s.parentSpanId === action.spanId);
    expect(generation?.attributes['obs.observation.output']).toBe('You asked: hi there');
    expect(orphans(spans)).toEqual([]);
  });

  it('streams server-sent events through, the root recording the reassembled text', async () => {
    const res = await fetch(`${suite.app.url}/api/stream`);
    expect(await res.text()).toBe('data: one\n\ndata: two\n\ndata: three\n\n');
    const spans = await traceRootedAt(suite.server, 'GET /api/stream', 3);
    expect(spanNamed(spans, 'GET /api/stream').attributes['obs.observation.output']).toBe('data: one\n\ndata: two\n\ndata: three\n\n');
    expect(spanNamed(spans, 'tokens').attributes['obs.observation.output']).toBe('onetwothree');
  });
});

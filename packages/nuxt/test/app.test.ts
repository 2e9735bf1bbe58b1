/**
 * A real Nuxt 4 app (test/app: `defineNitroPlugin(obsNitroPlugin())` in server/plugins), built once
 * by `nuxt build` (Nitro's node-server preset) and served by `node .output/server/index.mjs`, read
 * back from the local obs server: the checks of every build (test/checks.ts: no build warning, a
 * `server/api` route with a body and a param, a throwing handler), one copy of obs in the server
 * bundle, server-sent events and a page render.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleCopies } from '../../../tests/support/bundle-copies.js';
import { serveWithObs, spanNamed, traceWith } from '../../../tests/support/framework-app.js';
import { nitroChecks } from './checks.js';
import { APP_DIR } from './global-setup.js';

const suite = serveWithObs(() => ['.output/server/index.mjs'], APP_DIR);

/** The server bundle's own files (not the packages Nitro traced into .output/server/node_modules, which it imports). */
function serverFiles(): string[] {
  const dir = join(APP_DIR, '.output/server');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.m?js$/.test(f) && !f.startsWith('node_modules'))
    .map((f) => readFileSync(join(dir, f), 'utf8'));
}

describe('nuxt build', () => {
  it('puts one copy of @obs/core and @opentelemetry/api in the server bundle', () => {
    expect(bundleCopies(serverFiles())).toEqual({ core: 1, api: 1 });
  });
});

describe('obsNitroPlugin()', () => {
  nitroChecks(suite, 'build');

  it('streams server-sent events through, the root recording the reassembled events', async () => {
    const res = await fetch(`${suite.app.url}/api/stream`);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    expect(text.match(/data: (\w+)/g)).toEqual(['data: one', 'data: two', 'data: three']);
    const spans = await traceWith(suite.server, res.headers.get('x-obs-trace-id')!, 2);
    const root = spanNamed(spans, 'GET /api/stream');
    expect(String(root.attributes['obs.observation.output'])).toBe(text);
    expect(spanNamed(spans, 'tokens').parentSpanId).toBe(root.spanId);
  });

  it("traces a page render under Nuxt's renderer route", async () => {
    const res = await fetch(`${suite.app.url}/`);
    expect(res.status).toBe(200);
    const spans = await traceWith(suite.server, res.headers.get('x-obs-trace-id')!, 1);
    expect(spans.map((s) => s.name)).toEqual(['GET /**']);
  });
});

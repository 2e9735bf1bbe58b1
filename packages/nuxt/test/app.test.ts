/**
 * A real Nuxt 4 app (test/app: `defineNitroPlugin(obsNitroPlugin())` in server/plugins), built once
 * by `nuxt build` (Nitro's node-server preset) and served by `node .output/server/index.mjs`, read
 * back from the local obs server: a `server/api` route with a body and a param, server-sent events,
 * a throwing handler, a page render and an unmatched path.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bundleCopies } from '../../../tests/support/bundle-copies.js';
import { appEnv, obsWarnings, type ServedApp, serveApp, spanNamed, traceWith } from '../../../tests/support/framework-app.js';
import { APP_DIR } from './global-setup.js';

const local = setupObsServer();
let app: ServedApp;

beforeAll(async () => {
  app = await serveApp(() => ['.output/server/index.mjs'], APP_DIR, appEnv({ ...local.server.env, OBS_FLUSH_INTERVAL: '0.1' }));
});

afterAll(async () => {
  await app?.stop();
});

/** The server bundle's own files (not the packages Nitro traced into .output/server/node_modules, which it imports). */
function serverFiles(): string[] {
  const dir = join(APP_DIR, '.output/server');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.m?js$/.test(f) && !f.startsWith('node_modules'))
    .map((f) => readFileSync(join(dir, f), 'utf8'));
}

describe('nuxt build', () => {
  it('builds with no warning from obs and one copy of @obs/core and @opentelemetry/api in the server bundle', () => {
    const { log } = inject('build');
    expect(obsWarnings(log)).toEqual([]);
    expect(bundleCopies(serverFiles())).toEqual({ core: 1, api: 1 });
  });
});

describe('obsNitroPlugin()', () => {
  it("names a server/api request after Nitro's route, with its body as input, its JSON as output and the model call inside", async () => {
    const res = await fetch(`${app.url}/api/chat/42`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user-id': 'user-7' },
      body: JSON.stringify({ message: 'ping', apiKey: 'secret' }),
    });
    const body = await res.json();
    expect(body).toEqual({ id: '42', answer: 'You asked: ping' });
    const spans = await traceWith(local.server, res.headers.get('x-obs-trace-id')!, 2);
    const root = spanNamed(spans, 'POST /api/chat/:id');
    expect(root.attributes).toMatchObject({
      'http.route': '/api/chat/:id',
      'url.path': '/api/chat/42',
      'http.response.status_code': 200,
      'user.id': 'user-7',
    });
    expect(JSON.parse(String(root.attributes['obs.observation.input']))).toEqual({ message: 'ping', apiKey: '[REDACTED]' });
    expect(JSON.parse(String(root.attributes['obs.observation.output']))).toEqual(body);
    const generation = spanNamed(spans, 'answer');
    expect(generation.parentSpanId).toBe(root.spanId);
    expect(generation.attributes['user.id']).toBe('user-7');
    expect(spans).toHaveLength(2);
  });

  it('streams server-sent events through, the root recording the reassembled events', async () => {
    const res = await fetch(`${app.url}/api/stream`);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    expect(text.match(/data: (\w+)/g)).toEqual(['data: one', 'data: two', 'data: three']);
    const spans = await traceWith(local.server, res.headers.get('x-obs-trace-id')!, 2);
    const root = spanNamed(spans, 'GET /api/stream');
    expect(String(root.attributes['obs.observation.output'])).toBe(text);
    expect(spanNamed(spans, 'tokens').parentSpanId).toBe(root.spanId);
  });

  it("records a throwing handler's error on the root of its 500", async () => {
    const res = await fetch(`${app.url}/api/boom`);
    expect(res.status).toBe(500);
    const spans = await traceWith(local.server, res.headers.get('x-obs-trace-id')!, 1);
    const root = spanNamed(spans, 'GET /api/boom');
    expect(root.attributes['obs.observation.level']).toBe('ERROR');
    expect(String(root.attributes['obs.observation.status_message'])).toContain('handler exploded');
  });

  it("traces a page render under Nuxt's renderer route", async () => {
    const res = await fetch(`${app.url}/`);
    expect(res.status).toBe(200);
    const spans = await traceWith(local.server, res.headers.get('x-obs-trace-id')!, 1);
    expect(spans.map((s) => s.name)).toEqual(['GET /**']);
  });
});

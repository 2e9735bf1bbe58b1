/**
 * The low end of the peer range: a Nuxt 3.9.1 app on Nitro 2.8.1 and h3 1.10.0 (floors/nuxt,
 * `defineNitroPlugin(obsNitroPlugin())` in server/plugins), built once by its own `nuxt build`
 * and served by `node .output/server/index.mjs`, read back from the local obs server: a
 * `server/api` route with a body and a param, and a throwing handler.
 */
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { appEnv, obsWarnings, type ServedApp, serveApp, spanNamed, traceWith } from '../../../tests/support/framework-app.js';
import { FLOOR_DIR } from './global-setup.js';

const local = setupObsServer();
let app: ServedApp;

beforeAll(async () => {
  app = await serveApp(() => ['.output/server/index.mjs'], FLOOR_DIR, appEnv({ ...local.server.env, OBS_FLUSH_INTERVAL: '0.1' }));
});

afterAll(async () => {
  await app?.stop();
});

describe('obsNitroPlugin() on Nuxt 3.9.1 / Nitro 2.8.1 / h3 1.10.0', () => {
  it('builds with no warning from obs', () => {
    expect(obsWarnings(inject('floorBuild').log)).toEqual([]);
  });

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
    expect(root.attributes).toMatchObject({ 'http.route': '/api/chat/:id', 'http.response.status_code': 200, 'user.id': 'user-7' });
    expect(JSON.parse(String(root.attributes['obs.observation.input']))).toEqual({ message: 'ping', apiKey: '[REDACTED]' });
    expect(JSON.parse(String(root.attributes['obs.observation.output']))).toEqual(body);
    expect(spanNamed(spans, 'answer').parentSpanId).toBe(root.spanId);
    expect(spans).toHaveLength(2);
  });

  it("records a throwing handler's error on the root of its 500", async () => {
    const res = await fetch(`${app.url}/api/boom`);
    expect(res.status).toBe(500);
    const spans = await traceWith(local.server, res.headers.get('x-obs-trace-id')!, 1);
    const root = spanNamed(spans, 'GET /api/boom');
    expect(root.attributes['obs.observation.level']).toBe('ERROR');
    expect(String(root.attributes['obs.observation.status_message'])).toContain('handler exploded');
  });
});

/**
 * The low end of the peer range: a SvelteKit 2.0.0 app (floors/sveltekit: Svelte 4, Vite 5,
 * adapter-node 2, no tracing of SvelteKit's own, `handle = obsHandle()` and `handleError =
 * obsHandleError()` in hooks.server), built once by its own `vite build` and served by `node
 * build`, read back from the local obs server: a page with a load, a `+server` endpoint, a failing
 * load and an unmatched path.
 */
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { appEnv, obsWarnings, type ServedApp, serveApp, spanNamed, traceRootedAt } from '../../../tests/support/framework-app.js';
import { FLOOR_DIR } from './global-setup.js';

const local = setupObsServer();
let app: ServedApp;

beforeAll(async () => {
  app = await serveApp(() => ['build/index.js'], FLOOR_DIR, appEnv({ ...local.server.env, OBS_FLUSH_INTERVAL: '0.1' }));
});

afterAll(async () => {
  await app?.stop();
});

describe('obsHandle() on SvelteKit 2.0.0', () => {
  it('builds with no warning from obs', () => {
    expect(obsWarnings(inject('floorBuild').log)).toEqual([]);
  });

  it("names a page request after SvelteKit's route id, the model call of its load inside it", async () => {
    const res = await fetch(`${app.url}/chat/42`, { headers: { 'x-user-id': 'user-7' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('You asked: hello 42');
    const spans = await traceRootedAt(local.server, 'GET /chat/[id]', 2);
    expect(spans.map((s) => s.traceId)).toEqual(Array(2).fill(res.headers.get('x-obs-trace-id')));
    const root = spanNamed(spans, 'GET /chat/[id]');
    expect(root.attributes).toMatchObject({
      'http.route': '/chat/[id]',
      'url.path': '/chat/42',
      'http.response.status_code': 200,
      'user.id': 'user-7',
    });
    // No SvelteKit spans before its tracing (2.31): the load's generation is the root's child.
    expect(spanNamed(spans, 'answer').parentSpanId).toBe(root.spanId);
    expect(spans).toHaveLength(2);
  });

  it('traces a +server endpoint with its JSON input and output', async () => {
    const res = await fetch(`${app.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'ping' }),
    });
    const body = await res.json();
    expect(body).toEqual({ answer: 'You asked: ping' });
    const spans = await traceRootedAt(local.server, 'POST /api/chat', 2);
    const root = spanNamed(spans, 'POST /api/chat');
    expect(JSON.parse(String(root.attributes['obs.observation.input']))).toEqual({ message: 'ping' });
    expect(JSON.parse(String(root.attributes['obs.observation.output']))).toEqual(body);
    expect(spanNamed(spans, 'answer').attributes['obs.observation.output']).toBe('You asked: ping');
  });

  it("records a throwing load's error through handleError, and names an unmatched path <unmatched>", async () => {
    expect((await fetch(`${app.url}/boom`)).status).toBe(500);
    const [root] = await traceRootedAt(local.server, 'GET /boom', 1);
    expect(root!.attributes['obs.observation.level']).toBe('ERROR');
    expect(String(root!.attributes['obs.observation.status_message'])).toContain('load exploded');
    expect((await fetch(`${app.url}/no/such/page`)).status).toBe(404);
    const [unmatched] = await traceRootedAt(local.server, 'GET <unmatched>', 1);
    expect(unmatched!.attributes['obs.observation.level']).toBeUndefined();
  });
});

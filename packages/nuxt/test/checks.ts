/**
 * The checks every build of the Nuxt test app passes, whichever Nuxt, Nitro and h3 built it:
 * `app.test.ts` runs them on Nuxt 4 (test/app), `floor.test.ts` on the low end of the peer range
 * (floors/nuxt: Nuxt 3.9.1, Nitro 2.8.1, h3 1.10.0, the same server routes), each on its own build
 * and server. One list, so the floor is held to all the current release is.
 */
import { expect, inject, it } from 'vitest';
import { obsWarnings, requestRoot, type ServedSuite, spanNamed, traceWith } from '../../../tests/support/framework-app.js';

/** Registers the shared tests in the calling `describe`: `build` names the suite's build (`inject`). */
export function nitroChecks(suite: ServedSuite, build: 'build' | 'floorBuild'): void {
  it('builds with no warning from obs', () => {
    expect(obsWarnings(inject(build).log)).toEqual([]);
  });

  it("names a server/api request after Nitro's route, with its body as input, its JSON as output and the model call inside", async () => {
    const res = await fetch(`${suite.app.url}/api/chat/42`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user-id': 'user-7' },
      body: JSON.stringify({ message: 'ping', apiKey: 'secret' }),
    });
    const body = await res.json();
    expect(body).toEqual({ id: '42', answer: 'You asked: ping' });
    const spans = await traceWith(suite.server, res.headers.get('x-obs-trace-id')!, 2);
    const root = requestRoot(spans, 'POST', '/api/chat/:id', '/api/chat/42');
    expect(JSON.parse(String(root.attributes['obs.observation.input']))).toEqual({ message: 'ping', apiKey: '[REDACTED]' });
    expect(JSON.parse(String(root.attributes['obs.observation.output']))).toEqual(body);
    const generation = spanNamed(spans, 'answer');
    expect(generation.parentSpanId).toBe(root.spanId);
    expect(generation.attributes['user.id']).toBe('user-7');
    expect(spans).toHaveLength(2);
  });

  it("records a throwing handler's error on the root of its 500", async () => {
    const res = await fetch(`${suite.app.url}/api/boom`);
    expect(res.status).toBe(500);
    const spans = await traceWith(suite.server, res.headers.get('x-obs-trace-id')!, 1);
    const root = spanNamed(spans, 'GET /api/boom');
    expect(root.attributes['obs.observation.level']).toBe('ERROR');
    expect(String(root.attributes['obs.observation.status_message'])).toContain('handler exploded');
  });
}

/**
 * The checks every build of the SvelteKit test app passes, whichever SvelteKit built it:
 * `app.test.ts` runs them on SvelteKit 3 (test/app, its own tracing on), `floor.test.ts` on the
 * low end of the peer range (floors/sveltekit: SvelteKit 2.0.0, the same routes), each on its own
 * build and server. What differs is SvelteKit's own spans (its tracing, 2.31 and later): where
 * they exist, the model call of a load or an endpoint nests under `sveltekit.load` or
 * `sveltekit.endpoint`; before them, under the request's root.
 */
import type { DecodedSpan } from '@obs/local-server';
import { expect, inject, it } from 'vitest';
import { obsWarnings, requestRoot, type ServedSuite, spanNamed, traceRootedAt } from '../../../tests/support/framework-app.js';

/** Every span's parent is a span of the same trace, but for its one root. */
export function orphans(spans: DecodedSpan[]): string[] {
  const ids = new Set(spans.map((s) => s.spanId));
  return spans.filter((s) => s.parentSpanId && !ids.has(s.parentSpanId)).map((s) => s.name);
}

/** A build of the test app: its `inject` key, and whether SvelteKit traces itself (2.31+). */
export interface KitBuild {
  readonly build: 'build' | 'floorBuild';
  readonly kitSpans: boolean;
}

/** Registers the shared tests in the calling `describe`. */
export function handleChecks(suite: ServedSuite, { build, kitSpans }: KitBuild): void {
  /** The span a model call nests under: SvelteKit's own `kitSpan` where it traces itself, else the root. */
  const parentOf = (spans: DecodedSpan[], kitSpan: string, root: DecodedSpan) => (kitSpans ? spanNamed(spans, kitSpan) : root);

  it('builds with no warning from obs', () => {
    expect(obsWarnings(inject(build).log)).toEqual([]);
  });

  it("names a page request after SvelteKit's route id, with its load and the model call inside it", async () => {
    const res = await fetch(`${suite.app.url}/chat/42`, { headers: { 'x-user-id': 'user-7' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('You asked: hello 42');
    const spans = await traceRootedAt(suite.server, 'GET /chat/[id]', kitSpans ? 3 : 2);
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([res.headers.get('x-obs-trace-id')]));
    const root = requestRoot(spans, 'GET', '/chat/[id]', '/chat/42');
    expect(root.parentSpanId).toBeUndefined();
    const load = parentOf(spans, 'sveltekit.load', root);
    if (kitSpans) expect(load.attributes['sveltekit.load.node_id']).toContain('chat/[id]/+page.server');
    const generation = spanNamed(spans, 'answer');
    expect(generation.parentSpanId).toBe(load.spanId);
    expect(generation.attributes['user.id']).toBe('user-7');
    expect(orphans(spans)).toEqual([]);
    // Before SvelteKit's tracing: the root and the load's generation, nothing else.
    if (!kitSpans) expect(spans).toHaveLength(2);
  });

  it('traces a +server endpoint with its JSON input and output', async () => {
    const res = await fetch(`${suite.app.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'ping' }),
    });
    const body = await res.json();
    expect(body).toEqual({ answer: 'You asked: ping' });
    const spans = await traceRootedAt(suite.server, 'POST /api/chat', kitSpans ? 3 : 2);
    const root = spanNamed(spans, 'POST /api/chat');
    expect(JSON.parse(String(root.attributes['obs.observation.input']))).toEqual({ message: 'ping' });
    expect(JSON.parse(String(root.attributes['obs.observation.output']))).toEqual(body);
    const generation = spanNamed(spans, 'answer');
    expect(generation.attributes['obs.observation.output']).toBe('You asked: ping');
    expect(generation.parentSpanId).toBe(parentOf(spans, 'sveltekit.endpoint', root).spanId);
  });

  it("records a throwing load's error through handleError on the request's root", async () => {
    const res = await fetch(`${suite.app.url}/boom`);
    expect(res.status).toBe(500);
    const spans = await traceRootedAt(suite.server, 'GET /boom', kitSpans ? 2 : 1);
    const root = spanNamed(spans, 'GET /boom');
    expect(root.attributes['obs.observation.level']).toBe('ERROR');
    expect(String(root.attributes['obs.observation.status_message'])).toContain('load exploded');
  });

  it('names a request no route matched <unmatched>, a 404 that is no error', async () => {
    const res = await fetch(`${suite.app.url}/no/such/page`);
    expect(res.status).toBe(404);
    const spans = await traceRootedAt(suite.server, 'GET <unmatched>', 1);
    expect(spanNamed(spans, 'GET <unmatched>').attributes['obs.observation.level']).toBeUndefined();
  });
}

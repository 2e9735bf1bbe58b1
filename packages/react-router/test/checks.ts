/**
 * The checks every React Router 8 build of the chat routes passes: `app.test.ts` runs them on
 * examples/react-router (the demo's app, on the current release), `floor.test.ts` on the low end of
 * the 8.x range (floors/react-router: React Router 8.1.0, Vite 7, the same routes), each on its own
 * build and server. One list, so the floor is held to all the current release is. (React Router 7
 * tells the instrumentation less: floor-7.test.ts has checks of its own.)
 */
import { expect, inject, it } from 'vitest';
import { obsWarnings, requestRoot, type ServedSuite, spanNamed, traceRootedAt } from '../../../tests/support/framework-app.js';

/** Registers the shared tests in the calling `describe`: `build` names the suite's build (`inject`). */
export function instrumentationChecks(suite: ServedSuite, build: 'build' | 'floorBuild'): void {
  it('builds with no warning from obs', () => {
    expect(obsWarnings(inject(build).log)).toEqual([]);
  });

  it('makes a document request one trace: root named by the route pattern, each loader a child, the model call inside its loader', async () => {
    const res = await fetch(`${suite.app.url}/chat/42`, { headers: { 'x-user-id': 'user-7' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('You asked: hello 42');
    const spans = await traceRootedAt(suite.server, 'GET /chat/:id', 4);
    const root = requestRoot(spans, 'GET', '/chat/:id', '/chat/42');
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
    const res = await fetch(`${suite.app.url}/chat/7`, { method: 'POST', body: new URLSearchParams({ message: 'hi there' }) });
    expect(res.status).toBe(200);
    const spans = await traceRootedAt(suite.server, 'POST /chat/:id', 6);
    const root = spanNamed(spans, 'POST /chat/:id');
    // React Router's instrumentations see no request body (read-only by design): the form is the generation's input.
    expect(root.attributes['obs.observation.input']).toBeUndefined();
    const action = spanNamed(spans, 'action routes/chat');
    expect(action.parentSpanId).toBe(root.spanId);
    const generations = spans.filter((s) => s.name === 'answer');
    expect(generations.map((g) => g.parentSpanId).sort()).toEqual([action.spanId, spanNamed(spans, 'loader routes/chat').spanId].sort());
    expect(generations.find((g) => g.parentSpanId === action.spanId)!.attributes['obs.observation.output']).toBe('You asked: hi there');
  });

  it('marks a throwing loader as an error, and its request as the 500 it answered', async () => {
    const res = await fetch(`${suite.app.url}/boom`);
    expect(res.status).toBe(500);
    const spans = await traceRootedAt(suite.server, 'GET /boom', 3);
    const root = spanNamed(spans, 'GET /boom');
    expect(root.attributes['http.response.status_code']).toBe(500);
    expect(root.attributes['obs.observation.level']).toBe('ERROR');
    const loader = spanNamed(spans, 'loader routes/boom');
    expect(loader.attributes['obs.observation.level']).toBe('ERROR');
    expect(String(loader.attributes['obs.observation.status_message'])).toContain('loader exploded');
  });

  it('names a request no route matched <unmatched>', async () => {
    const res = await fetch(`${suite.app.url}/no/such/page`);
    expect(res.status).toBe(404);
    const spans = await traceRootedAt(suite.server, 'GET <unmatched>', 1);
    expect(spanNamed(spans, 'GET <unmatched>').attributes['url.path']).toBe('/no/such/page');
  });
}

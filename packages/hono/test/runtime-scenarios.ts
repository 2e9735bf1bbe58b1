/**
 * The requests every runtime's test sends to the shared app (fixtures/app.ts) and the trees the
 * local obs server must receive for them, counted span by span.
 */
import type { ObsServer } from '@obs/local-server';
import { expect, it } from 'vitest';
import { chatRequest, expectChatTree, traceOf } from './harness.js';

/** Registers the scenarios; `base()` is the app's URL once started. */
export function runtimeScenarios(server: () => ObsServer, base: () => string): void {
  it('the chat request: the route-named root with redacted input and output, identify after auth on every span, the child nested', async () => {
    const res = await fetch(`${base()}/chat/7`, chatRequest('u-rt'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ answer: 'echo: hello' });
    const { root, all } = await traceOf(server(), res.headers.get('x-obs-trace-id'), 2);
    expectChatTree(root, all, 'u-rt');
  });

  it('an SSE stream reassembled as the output, a crash as ERROR, a 4xx as the client’s, a health check not traced: every span counted', async () => {
    const stream = await fetch(`${base()}/stream/news`);
    const body = await stream.text();
    expect(body).toBe('data: one\n\ndata: two\n\ndata: three\n\n');
    const crash = await fetch(`${base()}/crash`);
    expect(crash.status).toBe(500);
    await crash.text();
    const missing = await fetch(`${base()}/missing`);
    expect(missing.status).toBe(404);
    await missing.text();
    const health = await fetch(`${base()}/health`);
    expect(health.headers.get('x-obs-trace-id')).toBeNull();
    await health.text();
    const { root: s } = await traceOf(server(), stream.headers.get('x-obs-trace-id'), 4);
    expect(s.name).toBe('GET /stream/:topic');
    expect(s.attributes['obs.observation.output']).toBe(body);
    const { root: c } = await traceOf(server(), crash.headers.get('x-obs-trace-id'), 1);
    expect(c.attributes).toMatchObject({ 'obs.observation.level': 'ERROR', 'obs.observation.status_message': 'database on fire' });
    const { root: m } = await traceOf(server(), missing.headers.get('x-obs-trace-id'), 1);
    expect(m.attributes['obs.observation.level']).toBeUndefined();
    expect(m.attributes['obs.observation.status_message']).toBe('no such ticket');
    // 4 + 1 + 1 spans and nothing else (the health check made none).
    expect(server().spans()).toHaveLength(6);
  });
}

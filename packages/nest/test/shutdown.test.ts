/**
 * Closing a real Nest app (`NestFactory`, listening, on both platforms) whose ObsModule started
 * obs: every accepted span is flushed, a request in flight included, and obs is shut down by the
 * last app that shares it.
 */
import { getObsHandle } from '@obs/core';
import { setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { listenJobsApp } from './fixtures/jobs-app.js';
import { getJson, platforms, sleep } from './support/harness.js';

const local = setupObsServer();

describe.each(platforms)('application shutdown ($name)', (platform) => {
  it('app.close() flushes every accepted span, including a request in flight, and shuts down the obs it started', async () => {
    // Nothing has started obs (each app here shuts down the obs it started).
    expect(getObsHandle()).toBeUndefined();
    // No initObs before: the module initialises obs. A long interval and a large batch, so only
    // the shutdown flush can have sent the spans.
    const { app, base } = await listenJobsApp(platform, { ...local.connection, flushInterval: 600, flushAt: 1000, flushOnExit: false });
    expect(getObsHandle()).toBeDefined();

    for (const ms of [1, 2, 3]) expect(await getJson(`${base}/jobs/${ms}`)).toEqual({ done: ms });
    const inFlight = getJson(`${base}/jobs/300`);
    await sleep(50);
    expect(local.server.spans()).toHaveLength(0);

    await app.close();
    expect(await inFlight).toEqual({ done: 300 });
    const roots = local.server.spansByName('GET /jobs/:ms');
    expect(roots.map((s) => s.attributes['url.path']).sort()).toEqual(['/jobs/1', '/jobs/2', '/jobs/3', '/jobs/300']);
    const steps = local.server.spansByName('Work.step');
    expect(steps).toHaveLength(4);
    // Each step nests under its request's root.
    for (const step of steps) expect(roots.find((r) => r.spanId === step.parentSpanId)?.traceId).toBe(step.traceId);
    // The module owned obs, so it shut it down.
    expect(getObsHandle()).toBeUndefined();
  });

  it('two apps sharing the obs an ObsModule started: the first to close only flushes, the last shuts it down', async () => {
    const obs = { ...local.connection, flushInterval: 600, flushOnExit: false };
    const make = () => listenJobsApp(platform, obs);
    const first = await make();
    const second = await make();
    const handle = getObsHandle();
    expect(handle).toBeDefined();

    await getJson(`${first.base}/jobs/1`);
    await first.app.close();
    expect(local.server.spansByName('GET /jobs/:ms')).toHaveLength(1);
    expect(getObsHandle()).toBe(handle);

    await getJson(`${second.base}/jobs/2`);
    await second.app.close();
    expect(local.server.spansByName('GET /jobs/:ms').map((s) => s.attributes['url.path'])).toEqual(['/jobs/1', '/jobs/2']);
    expect(getObsHandle()).toBeUndefined();
  });
});

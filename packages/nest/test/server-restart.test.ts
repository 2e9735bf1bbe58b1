/**
 * A restart of the obs server (its port closed for 3 s) under a steady load on a real Nest app
 * (`NestFactory`, listening): every request's trace arrives, counted by the path each request
 * made unique, once the app closes (its shutdown flush delivers what the outage held back).
 */
import { setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { listenJobsApp } from './fixtures/jobs-app.js';
import { getJson, platforms, sleep } from './support/harness.js';

const local = setupObsServer();
const REQUESTS = 100;

describe('an obs server restart under load', () => {
  it(`loses no request trace: ${REQUESTS} requests over 5 s, the server down for 3 s from the first second`, async () => {
    const { app, base } = await listenJobsApp(platforms[0]!, { ...local.connection, flushInterval: 0.1, flushOnExit: false });
    const requests: Promise<unknown>[] = [];
    let restart: Promise<void> | undefined;
    // Request i holds its step i ms (0 to 99): a unique path each.
    for (let i = 0; i < REQUESTS; i++) {
      if (i === 20) restart = local.server.restart(3000);
      requests.push(getJson(`${base}/jobs/${i}`));
      await sleep(50);
    }
    expect(await Promise.all(requests)).toEqual(Array.from({ length: REQUESTS }, (_, n) => ({ done: n })));
    await restart;
    // The module started obs, so closing the app shuts it down: a flush within shutdownTimeout.
    await app.close();
    const paths = new Set(local.server.spansByName('GET /jobs/:ms').map((s) => s.attributes['url.path']));
    const missing = Array.from({ length: REQUESTS }, (_, n) => `/jobs/${n}`).filter((p) => !paths.has(p));
    console.log(`[nest] restart under load: ${REQUESTS - missing.length} of ${REQUESTS} request traces arrived`);
    expect(missing).toEqual([]);
    expect(new Set(local.server.spansByName('Work.step').map((s) => s.traceId)).size).toBe(REQUESTS);
  }, 60_000);
});

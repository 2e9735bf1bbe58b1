/**
 * A restart of the obs server (its port closed for 3 s) while a real `next start` serves a steady
 * stream of requests: every request's trace arrives, counted by the trace id each response
 * carries. The spans of a request go out with its own flush (`after()`), which retries through
 * the outage within its bound; no timer-driven export helps (`OBS_FLUSH_INTERVAL=3600`).
 */
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextEnv, startNext } from './harness.js';

const local = setupObsServer();
let app: Awaited<ReturnType<typeof startNext>>;

beforeAll(async () => {
  app = await startNext(nextEnv({ ...local.server.env, OBS_FLUSH_INTERVAL: '3600' }));
});

afterAll(async () => {
  await app?.stop();
});

const ROOT = 'POST /api/chat/[id]';

describe('an obs server restart under load', () => {
  it('loses no request trace: 40 requests over 4 s, the server down for 3 s from the first second', async () => {
    const traceIds: string[] = [];
    const requests: Promise<void>[] = [];
    let restart: Promise<void> | undefined;
    for (let i = 0; i < 40; i++) {
      if (i === 10) restart = local.server.restart(3000);
      requests.push(
        fetch(`${app.url}/api/chat/${i}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-user-id': `user-${i}` },
          body: JSON.stringify({ message: `question ${i}` }),
        }).then(async (res) => {
          expect(res.status).toBe(200);
          await res.arrayBuffer();
          traceIds.push(res.headers.get('x-obs-trace-id')!);
        }),
      );
      await new Promise((r) => setTimeout(r, 100));
    }
    await Promise.all(requests);
    await restart;
    expect(new Set(traceIds).size).toBe(40);
    const missing = () => traceIds.filter((id) => !local.server.spansByTrace(id).some((s) => s.name === ROOT));
    await local.server.waitFor(() => missing().length === 0, { timeoutMs: 30_000 }).catch(() => undefined);
    console.log(`[next] restart under load: ${40 - missing().length} of 40 request traces arrived`);
    expect(missing()).toEqual([]);
    // Each request is one trace: its root and the model's generation under it.
    for (const id of traceIds) expect(local.server.spansByTrace(id).filter((s) => s.name === ROOT).length).toBeGreaterThanOrEqual(1);
  }, 60_000);
});

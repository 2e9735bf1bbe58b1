/**
 * A drain that waits for a server that comes back gets what is buffered to it. A collector
 * trickles failing answers (each 503 after 300 ms) for 5 s, then behaves; the app flushes (3 s,
 * which ends with everything still buffered, as it should) and then shuts down (3 s more): the
 * server has been healthy for the last second of it. The retry waits, grown to seconds by then,
 * are cut to leave time for another attempt before the deadline, so every span and score arrives
 * (counted by id), in every run. Scaled down from the field case: deadlines of 15 s, a collector
 * back after 25 s.
 */
import { describe, expect, it } from 'vitest';
import { startObservation } from '../../src/index.js';
import { TRACES_PATH } from '../../src/kit.js';
import { accounted, scoreArrivals, spanArrivals } from './load.js';
import { faultRig } from './rig.js';

const setUp = faultRig({ publicKey: 'pk-recovery', secretKey: 'sk-recovery' }, 0);
const SPANS = 2000;
const SCORES = 200;
const TRICKLE_MS = 5_000;
const DEADLINE_MS = 3_000;

describe('a collector that trickles failing answers, then recovers before the shutdown deadline', () => {
  it('flush() gives up at its deadline with everything buffered; shutdown() then delivers every span and score', async () => {
    const { server, tracing, client, logs } = await setUp({ flushAt: 100, flushInterval: 0.05, backoffMs: 200 }, { maxRetries: 0 });
    for (const path of [TRACES_PATH, '/api/public/scores']) {
      server.injectFault({ path, delayMs: 300, status: 503, durationMs: TRICKLE_MS });
    }
    const started = Date.now();
    for (let i = 0; i < SPANS; i++) startObservation(`load-${i}`).end();
    for (let i = 0; i < SCORES; i++) client.score.create({ id: `score-${i}`, traceId: 'a'.repeat(32), name: 'recovery', value: 1 });

    const [spansFlushed, scoresFlushed] = await Promise.all([
      tracing.processor.flush({ timeoutMs: DEADLINE_MS }),
      client.flush({ timeoutMs: DEADLINE_MS }).then(() => undefined),
    ]);
    expect(spansFlushed).toBe(false);
    expect(scoresFlushed).toBeUndefined();
    await Promise.all([tracing.processor.flushWithin(DEADLINE_MS), client.shutdown({ timeoutMs: DEADLINE_MS })]);
    const took = Date.now() - started;
    console.log(`[recovery] flush and shutdown took ${(took / 1000).toFixed(2)} s; the server recovered at ${TRICKLE_MS / 1000} s`);

    expect(spanArrivals(server, SPANS).missing).toBe(0);
    expect(scoreArrivals(server, SCORES).missing).toBe(0);
    expect(accounted(logs, 'spans')).toBe(0);
    expect(accounted(logs, 'scores')).toBe(0);
    expect(took).toBeLessThan(2 * DEADLINE_MS + 500);
  }, 30_000);
});

/**
 * A flush waits for what was accepted before it, not for a quiet moment. The collector answers
 * every request after 150 ms and the app never stops sending (spans and scores every few ms, as a
 * server under steady traffic does), so the sender always has something in flight: a flush that
 * waited for idleness ran to its deadline and said it failed (a serverless function kept open to
 * its timeout by its neighbours' traffic). Now it resolves as soon as every span and score ended
 * before the call is answered (counted by name and id at the server), while the traffic goes on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startObservation } from '../../src/index.js';
import { TRACES_PATH } from '../../src/kit.js';
import { faultRig } from './rig.js';

const KEYS = { publicKey: 'pk-traffic', secretKey: 'sk-traffic' };
const BEFORE = 50;
/** The flush's deadline: reaching it is the failure this test guards against. */
const DEADLINE_MS = 8_000;

const setUp = faultRig(KEYS, 0);
let traffic: ReturnType<typeof setInterval> | undefined;

afterEach(() => {
  clearInterval(traffic);
  traffic = undefined;
});

describe('a flush under steady traffic', () => {
  it('resolves once what came before it is delivered, not when the traffic stops', async () => {
    // ~10 batches a second of each, 4 in flight at most: within what the collector answers, never idle.
    const { server, tracing, client } = await setUp({ flushAt: 20, flushInterval: 0.05 }, { flushAt: 20, flushInterval: 0.05 });
    for (const path of [TRACES_PATH, '/api/public/scores']) server.injectFault({ path, delayMs: 150, durationMs: 60_000 });
    const trace = 'b'.repeat(32);
    let sent = 0;
    traffic = setInterval(() => {
      startObservation(`traffic-${sent}`).end();
      client.score.create({ id: `traffic-score-${sent++}`, traceId: trace, name: 'traffic', value: 1 });
    }, 5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (let i = 0; i < BEFORE; i++) {
      startObservation(`before-${i}`).end();
      client.score.create({ id: `before-score-${i}`, traceId: trace, name: 'before', value: 1 });
    }

    const started = Date.now();
    // What had arrived the moment each flush resolved.
    const arrived = (ids: string[], prefix: string) => ({
      before: Array.from({ length: BEFORE }, (_, i) => `${prefix}${i}`).filter((id) => ids.includes(id)).length,
      traffic: ids.filter((id) => id.startsWith('traffic-')).length,
      sent,
    });
    const [spans, scores] = await Promise.all([
      tracing.processor.flush({ timeoutMs: DEADLINE_MS }).then((value) => ({
        value,
        ms: Date.now() - started,
        ...arrived(
          server.spans().map((s) => s.name),
          'before-',
        ),
      })),
      client.flush({ timeoutMs: DEADLINE_MS }).then(() => ({
        ms: Date.now() - started,
        ...arrived(
          server.scores.map((s) => String((s as { id?: unknown }).id)),
          'before-score-',
        ),
      })),
    ]);
    console.log(
      `[traffic] spans flushed in ${spans.ms} ms (${spans.traffic} of ${spans.sent} traffic spans arrived), scores in ${scores.ms} ms`,
    );

    // Waiting for a quiet moment ran each flush to its deadline (and the spans' flush said false).
    expect(spans.value).toBe(true);
    expect(Math.max(spans.ms, scores.ms)).toBeLessThan(DEADLINE_MS / 2);
    expect(spans.before).toBe(BEFORE);
    expect(scores.before).toBe(BEFORE);
    // The traffic was still in flight when the flushes resolved: they did not wait for a quiet moment.
    expect(spans.traffic).toBeLessThan(spans.sent);
    expect(scores.traffic).toBeLessThan(scores.sent);
  }, 30_000);
});

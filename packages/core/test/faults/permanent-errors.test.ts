/**
 * Permanent errors fail fast: a 4xx other than 401/408/429 is not retried and a server refusing
 * every batch writes a line per report interval, not one per batch; a name that does not
 * resolve is a configuration error until the host was reached once, then an outage. Counted on
 * a real server (requests, spans, scores) and in log lines.
 */
import { describe, expect, it } from 'vitest';
import { failureOutcome } from '../../src/delivery/outcome.js';
import { startObservation } from '../../src/index.js';
import { TRACES_PATH } from '../../src/kit.js';
import { accounted, obsLines } from './load.js';
import { faultRig } from './rig.js';

const KEYS = { publicKey: 'pk-perm', secretKey: 'sk-perm' };
const SCORES_PATH = '/api/public/scores';

const setUp = faultRig(KEYS, 500);

describe('a server answering 400 to every batch', () => {
  it('each batch is sent once; one line at once, the rest summed when the shutdown ends; every span and score counted', async () => {
    const { server, tracing, client, logs } = await setUp({ flushAt: 100, flushInterval: 60 }, { flushAt: 10, flushInterval: 60 });
    server.injectFault({ path: TRACES_PATH, status: 400, body: { message: 'bad batch' }, times: 10_000 });
    server.injectFault({ path: SCORES_PATH, status: 400, body: { message: 'bad scores' }, times: 10_000 });
    for (let i = 0; i < 1000; i++) startObservation(`load-${i}`).end();
    for (let turn = 0; turn < 10; turn++) {
      for (let i = 0; i < 10; i++) client.score.create({ id: `score-${turn * 10 + i}`, traceId: 'a'.repeat(32), name: 'p', value: 1 });
      await new Promise((r) => setTimeout(r, 5));
    }
    const started = Date.now();
    await Promise.all([tracing.flush(), client.flush()]);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(server.requests.filter((r) => r.path === TRACES_PATH)).toHaveLength(10);
    expect(server.requests.filter((r) => r.path === SCORES_PATH)).toHaveLength(10);
    expect(obsLines(logs).sort()).toEqual([
      'dropped 10 scores: the server refused them (HTTP 400: {"message":"bad scores"})',
      'dropped 100 spans: the server refused them (HTTP 400: {"message":"bad batch"})',
    ]);
    await tracing.close();
    await client.shutdown();
    expect(obsLines(logs)).toHaveLength(4);
    expect(accounted(logs, 'spans')).toBe(1000);
    expect(accounted(logs, 'scores')).toBe(100);
  });
});

describe('a name that does not resolve', () => {
  it('is permanent until the host was reached once, an outage after (a DNS hiccup)', () => {
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND obs.example'), { code: 'ENOTFOUND' });
    expect(failureOutcome(notFound, false)).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/does not resolve/) });
    expect(failureOutcome(notFound, true)).toMatchObject({ kind: 'retry', reason: 'ENOTFOUND' });
    const again = Object.assign(new Error('getaddrinfo EAI_AGAIN obs.example'), { code: 'EAI_AGAIN' });
    expect(failureOutcome(again, false)).toMatchObject({ kind: 'retry', reason: 'EAI_AGAIN' });
  });

  it('fetch (edge runtimes, a fetch of your own) is classified the same: the code is on the cause', () => {
    const viaFetch = new TypeError('fetch failed', {
      cause: Object.assign(new Error('self-signed'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
    });
    expect(failureOutcome(viaFetch, true)).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/TLS connection failed/) });
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) });
    expect(failureOutcome(refused, false)).toEqual({ kind: 'retry', reason: 'ECONNREFUSED', unanswered: false });
  });
});

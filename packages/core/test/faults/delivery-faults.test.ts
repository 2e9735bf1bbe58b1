/**
 * Delivery through real server faults (the local server's fault injection): a restart, a long
 * outage at a steady rate, a 6 MB span against a 4 MB request limit, a black hole at shutdown,
 * hangs, refused keys. Counts of spans and scores arrived by id, log lines, RSS growth.
 */
import { context, type Context } from '@opentelemetry/api';
import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { HttpObserver } from '../../src/http/index.js';
import { startObservation } from '../../src/index.js';
import { ENCODE_EVERY } from '../../src/export/pipeline/batch-queue.js';
import { TRACES_PATH, TRUNCATION_MARKER } from '../../src/kit.js';
import { captureLogs } from '../support/server.js';
import { installTracing } from '../tracing/harness.js';
import { lines, outageSeconds, scoreArrivals, spanArrivals, steadyLoad } from './load.js';
import { faultRig } from './rig.js';

const KEYS = { publicKey: 'pk-faults', secretKey: 'sk-faults' };
const SCORES_PATH = '/api/public/scores';

const rig = faultRig(KEYS);

function setUp(options: Parameters<typeof installTracing>[1] = {}, serverOptions: { maxBodyBytes?: number } = {}) {
  // No request-level retries: every failure goes through the score queue's outage handling, so
  // its lines do not depend on how long the fault outlasts the transport's own retries.
  const client = { maxRetries: 0, backoff: { initialDelayMs: 50, maxDelayMs: 1000 } };
  return rig({ backoffMs: 50, flushAt: 100, flushInterval: 0.1, ...options }, client, serverOptions);
}

describe('a server restart (port closed for 3 s) under steady load', () => {
  it('loses no span and no score; one line when it starts failing, one when it recovers', async () => {
    const { server, tracing, client, logs } = await setUp();
    const load = await steadyLoad({
      spansPerSecond: 200,
      scoresPerSecond: 20,
      seconds: 5,
      client,
      at: { ms: 1000, run: () => server.restart(3000) },
    });
    await load.faultDone;
    await Promise.all([tracing.flush(), client.flush()]);
    const spans = spanArrivals(server, load.spans);
    const scores = scoreArrivals(server, load.scores);
    expect(load.spans).toBe(1000);
    expect(spans.missing).toBe(0);
    expect(scores.missing).toBe(0);
    // At-least-once: a batch cut by the restart after the server stored it arrives twice.
    expect(spans.duplicates).toBeLessThanOrEqual(100);
    expect(scores.duplicates).toBeLessThanOrEqual(10);
    expect(lines(logs, /traces is failing \((ECONNREFUSED|ECONNRESET|.*closed)/)).toHaveLength(1);
    expect(lines(logs, /traces recovered after [\d.]+ s: \d+ spans delivered late, none lost/)).toHaveLength(1);
    expect(lines(logs, /scores is failing/)).toHaveLength(1);
    expect(lines(logs, /scores recovered after [\d.]+ s: \d+ scores delivered late, none lost/)).toHaveLength(1);
    expect(logs.filter((l) => l.level === 'error')).toEqual([]);
  });
});

describe('a long outage (503 and 429 for OBS_FAULT_OUTAGE_SECONDS, default 30) at 1,000 spans/s and 100 scores/s', () => {
  const seconds = outageSeconds();
  it(
    'loses nothing, logs start / at most one line per report interval / recovery, and memory stays bounded',
    async () => {
      const reportEvery = Math.max(1, seconds / 3);
      const { server, tracing, client, logs } = await setUp({ flushAt: 512, flushInterval: 1, outageReportInterval: reportEvery });
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 250);
      const load = await steadyLoad({
        spansPerSecond: 1000,
        scoresPerSecond: 100,
        seconds: seconds + 3,
        client,
        at: {
          ms: 1000,
          run: () => {
            server.injectFault({ path: TRACES_PATH, status: 503, durationMs: seconds * 1000 });
            server.injectFault({ path: SCORES_PATH, status: 429, retryAfter: 1, durationMs: seconds * 1000 });
          },
        },
      });
      await Promise.all([tracing.flush(), client.flush()]);
      clearInterval(sampler);
      const spans = spanArrivals(server, load.spans);
      const scores = scoreArrivals(server, load.scores);
      expect(spans).toEqual({ unique: load.spans, total: load.spans, missing: 0, duplicates: 0 });
      expect(scores).toEqual({ unique: load.scores, total: load.scores, missing: 0, duplicates: 0 });
      expect(lines(logs, /traces is failing \(HTTP 503\)/)).toHaveLength(1);
      const ongoing = lines(logs, /traces still failing after \d+ s \(HTTP 503\): \d+ spans buffered, 0 dropped/);
      expect(ongoing.length).toBeGreaterThanOrEqual(1);
      expect(ongoing.length).toBeLessThanOrEqual(Math.ceil(seconds / reportEvery));
      expect(lines(logs, /traces recovered after [\d.]+ s: \d+ spans delivered late, none lost/)).toHaveLength(1);
      expect(lines(logs, /scores is failing/)).toHaveLength(1);
      expect(lines(logs, /scores recovered after/)).toHaveLength(1);
      expect(logs.filter((l) => l.level === 'error')).toEqual([]);
      // Requests in flight stay bounded: one probe at a time while the server fails.
      const growthMb = (rssPeak - rssBefore) / 1e6;
      console.log(`[faults] ${seconds} s outage: ${load.spans} spans, ${load.scores} scores; RSS growth ${growthMb.toFixed(0)} MB`);
      expect(growthMb).toBeLessThan(400);
    },
    (seconds + 60) * 1000,
  );
});

describe('one oversized value against a 4 MB request limit', () => {
  const big = 'A'.repeat(6 * 1024 * 1024);
  /** 6 MB of base64 noise: still about 4.5 MB gzipped, over the limit. */
  const noise = randomBytes(4.5 * 1024 * 1024).toString('base64');

  it('default cap: the 6 MB input is cut at 1,000,000 characters with the marker and its batch arrives whole', async () => {
    const { server, tracing } = await setUp({ compression: 'none', flushInterval: 60 }, { maxBodyBytes: 4 * 1024 * 1024 });
    for (let i = 0; i < 99; i++) startObservation(`load-${i}`).end();
    startObservation('load-99', { input: big }).end();
    await tracing.flush();
    expect(spanArrivals(server, 100)).toEqual({ unique: 100, total: 100, missing: 0, duplicates: 0 });
    const input = String(server.spansByName('load-99')[0]!.attributes['obs.observation.input']);
    expect(input.startsWith('A'.repeat(1000))).toBe(true);
    expect(input).toBe(`${'A'.repeat(1_000_000)}${TRUNCATION_MARKER}${6 * 1024 * 1024 - 1_000_000} more characters]`);
  });

  // Gzipped, the queue holds only the compressed body: it is unzipped and split without the spans.
  it.each(['none', 'gzip'] as const)(
    'a batch refused with 413 is split and resent (compression %s): only the span too large alone is dropped, counted in one line',
    async (compression) => {
      // Media off: a span with this much text would wait aside for its media scan and leave in a
      // batch of its own; here it goes in the batch of the 99, which the 413 splits.
      const { server, tracing, logs } = await setUp(
        { compression, flushInterval: 60, maxValueChars: 10_000_000, media: false },
        { maxBodyBytes: 4 * 1024 * 1024 },
      );
      for (let i = 0; i < 99; i++) startObservation(`load-${i}`).end();
      startObservation('load-99', { input: compression === 'gzip' ? noise : big }).end();
      await tracing.flush();
      const arrived = spanArrivals(server, 100);
      expect(arrived).toEqual({ unique: 99, total: 99, missing: 1, duplicates: 0 });
      expect(server.spansByName('load-99')).toHaveLength(0);
      expect(server.requests.filter((r) => r.status === 413).length).toBeGreaterThan(1);
      expect(lines(logs, /./, 'error')).toEqual([
        expect.stringMatching(/^dropped 1 spans: the server refused a span as too large even alone \(HTTP 413/),
      ]);
    },
  );
});

describe('shutdown', () => {
  it('returns within shutdownTimeout against a black-holed server and says what it gave up', async () => {
    const { server, tracing, logs } = await setUp({ shutdownTimeout: 1, flushInterval: 60 });
    server.injectFault({ path: TRACES_PATH, hang: true, durationMs: 60_000 });
    for (let i = 0; i < 10; i++) startObservation(`load-${i}`).end();
    const started = Date.now();
    await tracing.processor.shutdown();
    const took = Date.now() - started;
    expect(took).toBeLessThan(5000);
    expect(lines(logs, /shutdown gave up/, 'error')).toEqual([
      expect.stringMatching(/^shutdown gave up after 1\.0 s: 0 spans dropped unsent, 10 in flight without an answer/),
    ]);
    expect(server.spans()).toHaveLength(0);
  });
});

describe('hangs, keys and the debug line', () => {
  it('a request that hangs past the timeout is retried: every span arrives once', async () => {
    const { server, tracing, logs } = await setUp({ timeout: 0.3, flushInterval: 60 });
    server.injectFault({ path: TRACES_PATH, hang: true, times: 2 });
    for (let i = 0; i < 50; i++) startObservation(`load-${i}`).end();
    await tracing.flush();
    expect(spanArrivals(server, 50)).toEqual({ unique: 50, total: 50, missing: 0, duplicates: 0 });
    expect(lines(logs, /is failing \(timeout/)).toHaveLength(1);
    expect(lines(logs, /dropped|lost(?!,)/, 'error')).toEqual([]);
  });

  it('refused keys: one line per outage naming the variables and the base URL, not one per batch', async () => {
    const set = await setUp();
    const s = set.server;
    await set.tracing.close();
    set.tracing = installTracing(s, { secretKey: 'wrong', flushAt: 5, flushInterval: 60, retryBudget: 0.5, backoffMs: 20 });
    const logs = captureLogs();
    for (let i = 0; i < 20; i++) startObservation(`load-${i}`).end();
    await set.tracing.flush();
    const said = logs.filter((l) => l.level !== 'debug').map((l) => l.message);
    expect(said).toEqual([
      expect.stringMatching(/is failing \(the server refused the keys: check OBS_PUBLIC_KEY\/OBS_SECRET_KEY for http:/),
      expect.stringMatching(/dropped 5 spans: retried for 1 s \(the server refused the keys/),
    ]);
    expect(said[0]).toContain(s.url);
  });

  it('at debug level, one line per export with the span count and the answer', async () => {
    const { server, tracing, logs } = await setUp({ flushAt: 10, flushInterval: 60 });
    server.injectFault({ path: TRACES_PATH, status: 503, times: 1 });
    for (let i = 0; i < 20; i++) startObservation(`load-${i}`).end();
    await tracing.flush();
    const exported = lines(logs, /^\[obs\] exported|^exported/, 'debug');
    expect(exported.filter((l) => l === 'exported 10 spans: HTTP 200')).toHaveLength(2);
    expect(exported.filter((l) => l === 'exported 10 spans: HTTP 503')).toHaveLength(1);
  });
});

describe('what an outage holds', () => {
  it('request bodies, not spans: spans handed to the exporter during a 503 outage are collectable, and all arrive once it ends', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const { server, tracing } = await setUp({ flushAt: 100, flushInterval: 60 });
    server.injectFault({ path: TRACES_PATH, status: 503, durationMs: 60_000 });
    const refs = endSpans(300);
    // Three full batches went to the exporter; each failed its first attempt and waits for a retry.
    await until(() => server.requests.filter((r) => r.status === 503).length >= 1);
    expect(server.spans()).toHaveLength(0);
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setImmediate(r));
      gc();
    }
    expect(refs.filter((r) => r.deref() !== undefined)).toHaveLength(0);
    server.clearFaults();
    await tracing.flush();
    expect(spanArrivals(server, 300)).toEqual({ unique: 300, total: 300, missing: 0, duplicates: 0 });
  });
});

describe('what a batch being filled holds', () => {
  it('bytes, not spans: spans ended while their batch fills (nothing sent yet) are collectable after one turn; all arrive at the flush', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const { server, tracing } = await setUp({ flushAt: 512, flushInterval: 60 });
    const refs = endSpans(300);
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setImmediate(r));
      gc();
    }
    // Not one request yet: the 300 spans wait as encoded bytes of the batch being filled.
    expect(server.requests.filter((r) => r.path === TRACES_PATH)).toHaveLength(0);
    expect(refs.filter((r) => r.deref() !== undefined)).toHaveLength(0);
    await tracing.flush();
    expect(spanArrivals(server, 300)).toEqual({ unique: 300, total: 300, missing: 0, duplicates: 0 });
    expect(server.requests.filter((r) => r.path === TRACES_PATH)).toHaveLength(1);
  });

  it('a span whose request waits for its async identify stays a span until identify resolves, then carries the identity', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const { server, tracing } = await setUp({ flushAt: 512, flushInterval: 60 });
    let resolveIdentity!: (v: { userId: string }) => void;
    const identity = new Promise<{ userId: string }>((r) => (resolveIdentity = r));
    const observer = new HttpObserver<object>({ identify: () => identity });
    const ro = observer.start({ req: {}, method: 'GET', path: '/slow-auth' });
    const child = endChildSpan(ro.context);
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setImmediate(r));
      gc();
    }
    // Still held: encoding it now would send it without the user.
    expect(child.deref()).toBeDefined();
    resolveIdentity({ userId: 'user-late' });
    ro.finish({ statusCode: 200 });
    // Enough spans of other requests end for an encoding turn.
    endSpans(ENCODE_EVERY);
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setImmediate(r));
      gc();
    }
    expect(child.deref()).toBeUndefined();
    await tracing.flush();
    const spans = server.spans().filter((s) => !s.name.startsWith('load-'));
    expect(spans.map((s) => [s.name, s.attributes['user.id']]).sort()).toEqual([
      ['GET /slow-auth', 'user-late'],
      ['child', 'user-late'],
    ]);
  });

  it(`encodes in a turn per ${ENCODE_EVERY} ended spans, not per span: fewer stay objects until more end or the flush interval`, async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // A flush interval well past the first checks, so only the count can have started a turn there.
    const { server, tracing } = await setUp({ flushAt: 512, flushInterval: 2 });
    const few = endSpans(ENCODE_EVERY - 1);
    await new Promise((r) => setImmediate(r));
    gc();
    // No turn was scheduled: still span objects.
    expect(few.filter((r) => r.deref() !== undefined)).toHaveLength(ENCODE_EVERY - 1);
    const last = endSpans(1, ENCODE_EVERY - 1);
    await new Promise((r) => setImmediate(r));
    gc();
    expect([...few, ...last].filter((r) => r.deref() !== undefined)).toHaveLength(0);
    // Below the count, the flush interval encodes and sends them.
    const quiet = endSpans(3, ENCODE_EVERY);
    await until(() => server.spans().length === ENCODE_EVERY + 3);
    gc();
    expect(quiet.filter((r) => r.deref() !== undefined)).toHaveLength(0);
    expect(spanArrivals(server, ENCODE_EVERY + 3)).toEqual({
      unique: ENCODE_EVERY + 3,
      total: ENCODE_EVERY + 3,
      missing: 0,
      duplicates: 0,
    });
    await tracing.flush();
  });
});

/** Ends one observation inside `ctx`; only a weak reference to its span comes back. */
function endChildSpan(ctx: Context): WeakRef<object> {
  return context.with(ctx, () => {
    const observation = startObservation('child');
    observation.end();
    return new WeakRef(observation.otelSpan);
  });
}

/** Ends `count` observations (`load-<from>` on); only weak references to their spans come back. */
function endSpans(count: number, from = 0): WeakRef<object>[] {
  // Its own function: a suspended async test keeps its last loop value alive in its frame.
  const refs: WeakRef<object>[] = [];
  for (let i = from; i < from + count; i++) {
    const observation = startObservation(`load-${i}`, { input: `question ${i} ${'x'.repeat(1000)}` });
    refs.push(new WeakRef(observation.otelSpan));
    observation.end();
  }
  return refs;
}

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

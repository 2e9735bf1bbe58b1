/**
 * Delivery: exportMode immediate vs batched (flushAt, flushInterval), flush() resolving only
 * once the server has the spans, shutdown() flushing, retries on 503 and none on 400.
 */
import { decodeOtlpProtobuf } from '@obs/local-server';
import { setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { startObservation } from '../../src/index.js';
import { TRACES_PATH } from '../../src/kit.js';
import { captureLogs, perTestTracing, sleep, TRACING_KEYS, type Tracing, traceRequests } from '../tracing/harness.js';

const { server } = await setupObsServer(TRACING_KEYS).ready;
const install = perTestTracing(server);

const names = () => server.spans().map((s) => s.name);

describe('export modes', () => {
  it('immediate: each span leaves as it ends, without flush and whatever the interval', async () => {
    install({ exportMode: 'immediate', flushInterval: 60, flushAt: 100 });
    startObservation('imm-1').end();
    await server.waitForSpans(1, { timeoutMs: 2000 });
    startObservation('imm-2').end();
    await server.waitForSpans(2, { timeoutMs: 2000 });
    expect(names()).toEqual(['imm-1', 'imm-2']);
    expect(traceRequests(server)).toHaveLength(2);
  });

  it('batched: nothing leaves before flushAt spans; then one request carries the whole batch', async () => {
    install({ exportMode: 'batched', flushAt: 3, flushInterval: 60 });
    startObservation('b-1').end();
    startObservation('b-2').end();
    await sleep(150);
    expect(traceRequests(server)).toHaveLength(0);
    startObservation('b-3').end();
    await server.waitForSpans(3, { timeoutMs: 2000 });
    const requests = traceRequests(server);
    expect(requests).toHaveLength(1);
    expect(names().sort()).toEqual(['b-1', 'b-2', 'b-3']);
  });

  it('batched: a partial batch leaves after flushInterval', async () => {
    install({ flushAt: 100, flushInterval: 0.3 });
    const ended = Date.now();
    startObservation('interval-1').end();
    startObservation('interval-2').end();
    await sleep(20);
    expect(traceRequests(server)).toHaveLength(0);
    await server.waitForSpans(2, { timeoutMs: 2000 });
    expect(Date.now() - ended).toBeGreaterThanOrEqual(280);
    expect(traceRequests(server)).toHaveLength(1);
  });

  it('flushAt splits a large flush into batches of at most flushAt spans', async () => {
    const tracing = install({ flushAt: 4, flushInterval: 60 });
    // 10 spans ended in one tick: the flush sends them as 4 + 4 + 2.
    for (let i = 0; i < 10; i++) startObservation(`many-${i}`).end();
    await tracing.flush();
    expect(server.spans()).toHaveLength(10);
    // Batches are sent concurrently, so they may arrive in any order.
    const perRequest = traceRequests(server).map((r) => decodeOtlpProtobuf(r.body).length);
    expect(perRequest.sort()).toEqual([2, 4, 4]);
  });
});

describe('flush and shutdown', () => {
  it('flush() resolves only once the server has stored the spans (even when the server is slow)', async () => {
    const tracing = install({ flushAt: 100, flushInterval: 60 });
    server.injectFault({ path: TRACES_PATH, delayMs: 300 });
    startObservation('slow-1').end();
    startObservation('slow-2').end();
    await tracing.flush();
    expect(names().sort()).toEqual(['slow-1', 'slow-2']);
    expect(traceRequests(server).map((r) => r.status)).toEqual([200]);
  });

  it('flush() also waits for a batch already in flight', async () => {
    const tracing = install({ exportMode: 'immediate' });
    server.injectFault({ path: TRACES_PATH, delayMs: 250 });
    startObservation('in-flight').end();
    await sleep(30); // the immediate export is on the wire, delayed by the server
    expect(server.spans()).toHaveLength(0);
    await tracing.flush();
    expect(names()).toEqual(['in-flight']);
  });

  it('shutdown() flushes pending spans, then stops exporting', async () => {
    const tracing = install({ flushAt: 100, flushInterval: 60 });
    startObservation('before-shutdown-1').end();
    startObservation('before-shutdown-2').end();
    await tracing.processor.shutdown();
    expect(names().sort()).toEqual(['before-shutdown-1', 'before-shutdown-2']);
    startObservation('after-shutdown').end();
    await tracing.flush();
    await sleep(50);
    expect(names()).not.toContain('after-shutdown');
  });

  it('provider.shutdown() (what initObs handles call) flushes too', async () => {
    const tracing = install({ flushAt: 100, flushInterval: 60 });
    startObservation('provider-shutdown').end();
    await tracing.provider.shutdown();
    expect(names()).toEqual(['provider-shutdown']);
  });
});

describe('retries', () => {
  it('a 503 then 200 still delivers the batch (retried)', async () => {
    const tracing = install({ flushAt: 100, flushInterval: 60 });
    server.injectFault({ path: TRACES_PATH, status: 503, times: 1 });
    startObservation('retried').end();
    await tracing.flush();
    expect(traceRequests(server).map((r) => r.status)).toEqual([503, 200]);
    expect(names()).toEqual(['retried']);
  });

  it('429 with Retry-After and a dropped connection are retried too', async () => {
    const tracing = install({ flushAt: 100, flushInterval: 60 });
    server.injectFault({ path: TRACES_PATH, status: 429, retryAfter: 0, times: 1 });
    server.injectFault({ path: TRACES_PATH, reset: true, times: 1 });
    startObservation('retried-twice').end();
    await tracing.flush();
    expect(traceRequests(server).map((r) => r.status)).toEqual([429, 0, 200]);
    expect(names()).toEqual(['retried-twice']);
  });

  it('a 400 is not retried: one request, an error logged, flush resolves', async () => {
    const logs = captureLogs();
    const tracing = install({ flushAt: 100, flushInterval: 60 });
    server.injectFault({ path: TRACES_PATH, status: 400, body: { message: 'bad batch' }, times: 3 });
    startObservation('rejected').end();
    await tracing.flush();
    await sleep(50);
    expect(traceRequests(server).map((r) => r.status)).toEqual([400]);
    expect(server.spans()).toHaveLength(0);
    const errors = logs.filter((l) => l.level === 'error').map((l) => l.message);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/400/);
    expect(logs.map((l) => l.message).join('\n')).not.toContain(server.secretKey);
    // The exporter still works for the next batch.
    server.clearFaults();
    startObservation('after-400').end();
    await tracing.flush();
    expect(names()).toEqual(['after-400']);
  });

  it('gives up when the retry budget runs out on a persistent 503: the loss is counted in one outage report, never thrown', async () => {
    const logs = captureLogs();
    const tracing = install({ flushAt: 100, flushInterval: 60, retryBudget: 0.3, outageReportInterval: 0.1 });
    server.injectFault({ path: TRACES_PATH, status: 503, times: 10_000 });
    startObservation('never-delivered').end();
    await tracing.flush();
    expect(traceRequests(server).length).toBeGreaterThan(2);
    expect(server.spans()).toHaveLength(0);
    const errors = logs.filter((l) => l.level !== 'debug').map((l) => l.message);
    expect(errors[0]).toMatch(/is failing \(HTTP 503\)/);
    expect(errors.at(-1)).toMatch(
      /dropped 1 spans: retried for 0 s \(HTTP 503\); further losses of this outage are counted in its reports/,
    );
    for (const m of errors.slice(1, -1)) expect(m).toMatch(/still failing after \d+ s \(HTTP 503\): [01] spans buffered, 0 dropped/);
    // The outage ends with the next delivery, and that line reports the loss.
    server.clearFaults();
    startObservation('after-outage').end();
    await tracing.flush();
    const recovered = logs.filter((l) => /recovered/.test(l.message)).map((l) => l.message);
    expect(recovered).toEqual([expect.stringMatching(/recovered after [\d.]+ s: 1 spans delivered late, 1 spans lost/)]);
  });
});

describe('limits and options', () => {
  it('timeout: a request slower than `timeout` is abandoned and retried', async () => {
    const logs = captureLogs();
    const tracing = install({ flushAt: 100, flushInterval: 60, timeout: 0.2 });
    // The late answer is a 503, so the abandoned request can never store spans afterwards.
    server.injectFault({ path: TRACES_PATH, delayMs: 3000, status: 503, times: 1 });
    startObservation('timed-out-once').end();
    const started = Date.now();
    await tracing.flush();
    expect(Date.now() - started).toBeLessThan(2500);
    expect(names()).toEqual(['timed-out-once']);
    expect(traceRequests(server)).toHaveLength(2);
    expect(logs.filter((l) => l.level === 'error')).toHaveLength(0);
    const warnings = logs.filter((l) => l.level === 'warn').map((l) => l.message);
    expect(warnings).toEqual([
      expect.stringMatching(/is failing \(timeout/),
      expect.stringMatching(/recovered after [\d.]+ s: 1 spans delivered late, none lost/),
    ]);
  });

  it('a span the processor cannot read at its end: span.end() does not throw, one error line, the other spans arrive', async () => {
    const tracing = install({ flushAt: 100, flushInterval: 60 });
    const logs = captureLogs();
    const readable = startObservation('readable');
    // A span whose attributes throw when read (a hostile span from another tracer's code).
    const hostile = Object.create(readable.otelSpan, {
      name: { value: 'hostile' },
      attributes: {
        get() {
          throw new Error('no attributes');
        },
      },
    });
    expect(() => tracing.processor.onEnd(hostile)).not.toThrow();
    readable.end();
    startObservation('after').end();
    await tracing.flush();
    expect(names().sort()).toEqual(['after', 'readable']);
    expect(logs.filter((l) => l.level === 'error').map((l) => l.message)).toEqual([
      '[obs] span "hostile" could not be queued for export and is dropped: Error: no attributes',
    ]);
  });

  it('maxQueueSize: spans past the cap are dropped with one error, the rest delivered', async () => {
    const logs = captureLogs();
    const tracing = install({ flushAt: 100, flushInterval: 60, maxQueueSize: 3 });
    for (let i = 0; i < 6; i++) startObservation(`capped-${i}`).end();
    await tracing.flush();
    expect(names().sort()).toEqual(['capped-0', 'capped-1', 'capped-2']);
    expect(logs.filter((l) => l.level === 'error')).toHaveLength(1);
  });

  it('flushAt and flushInterval default from OBS_FLUSH_AT / OBS_FLUSH_INTERVAL', async () => {
    process.env.OBS_FLUSH_AT = '2';
    process.env.OBS_FLUSH_INTERVAL = '60';
    try {
      install({ flushAt: undefined, flushInterval: undefined });
    } finally {
      delete process.env.OBS_FLUSH_AT;
      delete process.env.OBS_FLUSH_INTERVAL;
    }
    startObservation('env-1').end();
    await sleep(100);
    expect(traceRequests(server)).toHaveLength(0);
    startObservation('env-2').end();
    await server.waitForSpans(2, { timeoutMs: 2000 });
    expect(traceRequests(server)).toHaveLength(1);
  });

  it('environment and release default from OBS_TRACING_ENVIRONMENT / OBS_RELEASE', async () => {
    process.env.OBS_TRACING_ENVIRONMENT = 'env-from-var';
    process.env.OBS_RELEASE = 'release-from-var';
    let tracing: Tracing;
    try {
      tracing = install();
    } finally {
      delete process.env.OBS_TRACING_ENVIRONMENT;
      delete process.env.OBS_RELEASE;
    }
    startObservation('env-attrs').end();
    await tracing.flush();
    expect(server.spans()[0]!.attributes).toMatchObject({ 'obs.environment': 'env-from-var', 'obs.release': 'release-from-var' });
  });

  it('a custom exporter replaces OTLP/HTTP (no keys needed), still filtered and flushed', async () => {
    const { InMemorySpanExporter } = await import('@opentelemetry/sdk-trace-node');
    const memory = new InMemorySpanExporter();
    const tracing = install({ exporter: memory, baseUrl: undefined, publicKey: undefined, secretKey: undefined });
    expect(tracing.processor.enabled).toBe(true);
    startObservation('to-memory').end();
    await tracing.flush();
    expect(memory.getFinishedSpans().map((s) => s.name)).toEqual(['to-memory']);
    expect(server.requests).toHaveLength(0);
  });
});

import { setupObsServer } from '@obs/local-server/testing';
import { context, TraceFlags, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_KEYS, type LogLine, routeLogsInto } from '../support/server.js';
import { clientFor, messages, SPAN_ID, TRACE_ID, timedFetch } from './helpers.js';

const logs: LogLine[] = [];
const { server } = await setupObsServer({ ...CLIENT_KEYS, beforeEach: () => routeLogsInto(logs) }).ready;
beforeAll(() => {
  // activeObservation()/activeTrace() read the active span, which needs a context manager.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(() => {
  context.disable();
});

const score = (i: number) => ({ id: `score-${i}`, traceId: TRACE_ID, name: 'quality', value: i });

describe('batching', () => {
  it('sends 250 scores as 3 requests of at most 100', async () => {
    const client = clientFor(server);
    for (let i = 0; i < 250; i++) client.score.create(score(i));
    await client.score.flush();

    expect(server.scoreRequests.map((r) => (r.json as unknown[]).length)).toEqual([100, 100, 50]);
    expect(server.scores.map((s) => s.id)).toEqual(expect.arrayContaining(Array.from({ length: 250 }, (_, i) => `score-${i}`)));
    expect(server.scores).toHaveLength(250);
    for (const r of server.scoreRequests) {
      expect(r.auth).toBe('secret');
      expect(r.headers['x-obs-sdk-name']).toBe('javascript');
      expect(r.headers['x-obs-sdk-version']).toBe('6.0.0');
      expect(r.headers['x-obs-public-key']).toBe('pk-test');
      expect(r.headers['content-type']).toBe('application/json');
    }
    await client.shutdown();
  });

  it('at debug level, one line per request with the score count and the answer', async () => {
    const client = clientFor(server);
    for (let i = 0; i < 150; i++) client.score.create(score(i));
    await client.score.flush();
    expect(logs.filter((l) => l.level === 'debug' && /sent \d+ scores/.test(l.message)).map((l) => l.message)).toEqual([
      '[obs] sent 100 scores: accepted',
      '[obs] sent 50 scores: accepted',
    ]);
    await client.shutdown();
  });

  it('waits for flushAt before sending, and sends the rest after flushInterval', async () => {
    const client = clientFor(server, { flushAt: 5, flushInterval: 0.15 });
    for (let i = 0; i < 7; i++) client.score.create(score(i));
    await server.waitFor(() => server.scoreRequests.length === 1);
    expect((server.scoreRequests[0]!.json as unknown[]).length).toBe(7);

    client.score.create(score(7));
    await new Promise((r) => setTimeout(r, 50));
    expect(server.scoreRequests).toHaveLength(1);
    await server.waitFor(() => server.scoreRequests.length === 2, { timeoutMs: 2000 });
    expect(server.scores.map((s) => s.id)).toContain('score-7');
    await client.shutdown();
  });

  it('reads flushAt and flushInterval from OBS_FLUSH_AT / OBS_FLUSH_INTERVAL', async () => {
    process.env.OBS_FLUSH_AT = '3';
    process.env.OBS_FLUSH_INTERVAL = '60';
    try {
      const client = clientFor(server);
      client.score.create(score(1));
      client.score.create(score(2));
      await new Promise((r) => setTimeout(r, 30));
      expect(server.scoreRequests).toHaveLength(0);
      client.score.create(score(3));
      await server.waitFor(() => server.scoreRequests.length === 1);
      await client.shutdown();
    } finally {
      delete process.env.OBS_FLUSH_AT;
      delete process.env.OBS_FLUSH_INTERVAL;
    }
  });

  it('stamps each score with the time it was queued and a client-side id', async () => {
    const client = clientFor(server, { flushAt: 100, flushInterval: 60, environment: 'staging' });
    const before = Date.now();
    client.score.create({ traceId: TRACE_ID, name: 'a', value: 1 });
    await new Promise((r) => setTimeout(r, 60));
    client.score.create({ traceId: TRACE_ID, name: 'b', value: 'good', environment: 'prod' });
    await client.score.flush();

    const [a, b] = server.scores;
    const ta = Date.parse(a!.timestamp as string);
    const tb = Date.parse(b!.timestamp as string);
    expect(ta).toBeGreaterThanOrEqual(before);
    expect(tb - ta).toBeGreaterThanOrEqual(50); // queued 60 ms apart, sent together
    expect(a!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(a!.id).not.toBe(b!.id);
    expect(a!.environment).toBe('staging');
    expect(b!.environment).toBe('prod');
    await client.shutdown();
  });

  it('flush() resolves only after the server answered every accepted score', async () => {
    const client = clientFor(server, { flushAt: 1000, flushInterval: 60 });
    server.injectFault({ path: '/api/public/scores', delayMs: 150 });
    for (let i = 0; i < 20; i++) client.score.create(score(i));
    await client.score.flush();
    expect(server.scores).toHaveLength(20);
    await client.flush(); // nothing left: resolves at once
    await client.shutdown();
  });

  it('does not keep the process alive: the flush timer is unref()ed', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const client = clientFor(server, { flushAt: 1000, flushInterval: 60 });
    client.score.create(score(1));
    expect(timers()).toBe(before);
    await client.shutdown();
    expect(server.scores).toHaveLength(1);
  });
});

describe('server answers', () => {
  it('a 207 logs exactly one "Obs rejected M of N scores in batch:" line and retries nothing', async () => {
    server.rejectScores((s: { value: number }) => (s.value % 2 === 0 && s.value < 6 ? `bad value ${s.value}` : undefined));
    const client = clientFor(server, { flushAt: 1000 });
    for (let i = 0; i < 10; i++) client.score.create(score(i));
    await client.score.flush();

    expect(server.scoreRequests).toHaveLength(1);
    expect(server.scoreRequests[0]!.status).toBe(207);
    expect(server.scores).toHaveLength(7);
    const lines = messages(logs).filter((m) => m.includes('rejected'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Obs rejected 3 of 10 scores in batch: /);
    expect(lines[0]).toContain('bad value 0');
    expect(lines[0]).toContain('score-4');
    expect(logs.filter((l) => l.level === 'error')).toHaveLength(1);
    await client.shutdown();
    expect(server.scoreRequests).toHaveLength(1);
  });

  it('a 503 then 200 delivers every score exactly once', async () => {
    server.injectFault({ path: '/api/public/scores', status: 503, times: 1 });
    const client = clientFor(server, { flushAt: 1000 });
    for (let i = 0; i < 150; i++) client.score.create(score(i));
    await client.score.flush();

    expect(server.scoreRequests.map((r) => r.status).sort()).toEqual([200, 200, 503]);
    const ids = server.scores.map((s) => s.id);
    expect(ids).toHaveLength(150);
    expect(new Set(ids).size).toBe(150);
    expect(messages(logs, 'error')).toEqual([]);
    await client.shutdown();
  });

  it('a 429 with Retry-After waits that long before the retry', async () => {
    server.injectFault({ path: '/api/public/scores', status: 429, retryAfter: 1, times: 1 });
    const timed = timedFetch();
    const client = clientFor(server, { flushAt: 1000, fetch: timed.fetch });
    client.score.create(score(1));
    await client.score.flush();

    expect(server.scoreRequests.map((r) => r.status)).toEqual([429, 200]);
    const [first, second] = server.scoreRequests;
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(950);
    expect(timed.sentAt[1]!.at - timed.sentAt[0]!.at).toBeGreaterThanOrEqual(950);
    expect(server.scores).toHaveLength(1);
    await client.shutdown();
  });

  it('retries a reset connection', async () => {
    server.injectFault({ path: '/api/public/scores', reset: true, times: 2 });
    const client = clientFor(server, { flushAt: 1000 });
    client.score.create(score(1));
    await client.score.flush();
    expect(server.scoreRequests).toHaveLength(3);
    expect(server.scores).toHaveLength(1);
    await client.shutdown();
  });

  it('drops the batch with one error log once the retry budget runs out (the queue retries, not the API transport)', async () => {
    server.injectFault({ path: '/api/public/scores', status: 500, times: 10_000 });
    const client = clientFor(server, { flushAt: 1000, maxRetries: 2, retryBudget: 0.2 });
    client.score.create(score(1));
    client.score.create(score(2));
    await client.score.flush();
    expect(server.scoreRequests.length).toBeGreaterThan(1);
    const errors = messages(logs, 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^dropped 2 scores: retried for 0 s \(HTTP 500\)/);
    server.clearFaults();
    await client.shutdown();
  });

  it('does not retry other 4xx', async () => {
    server.injectFault({ path: '/api/public/scores', status: 400, body: { message: 'nope' } });
    const client = clientFor(server, { flushAt: 1000 });
    client.score.create(score(1));
    await client.score.flush();
    expect(server.scoreRequests).toHaveLength(1);
    const errors = messages(logs, 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('HTTP 400');
    expect(errors[0]).toContain('nope');
    await client.shutdown();
  });
});

describe('invalid input', () => {
  const circular: Record<string, unknown> = { a: 1 };
  circular.self = circular;
  const throwing = Object.defineProperty({ value: 1, traceId: TRACE_ID }, 'name', {
    enumerable: true,
    get() {
      throw new Error('boom');
    },
  });
  const hostile = new Proxy(
    {},
    {
      get() {
        throw new Error('proxy');
      },
      ownKeys() {
        throw new Error('proxy');
      },
    },
  );
  const ok = { traceId: TRACE_ID };

  const garbage: Array<[string, unknown]> = [
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['a string', 'quality'],
    ['a boolean', true],
    ['an array', [{ ...ok, name: 'x', value: 1 }]],
    ['a function', () => 1],
    ['an empty object', {}],
    ['no name', { ...ok, value: 1 }],
    ['an empty name', { ...ok, name: '', value: 1 }],
    ['a blank name', { ...ok, name: '   ', value: 1 }],
    ['a non-string name', { ...ok, name: 7, value: 1 }],
    ['no value', { ...ok, name: 'x' }],
    ['NaN', { ...ok, name: 'x', value: NaN }],
    ['Infinity', { ...ok, name: 'x', value: Infinity }],
    ['-Infinity', { ...ok, name: 'x', value: -Infinity }],
    ['a null value', { ...ok, name: 'x', value: null }],
    ['a boolean value', { ...ok, name: 'x', value: true }],
    ['an object value', { ...ok, name: 'x', value: { score: 1 } }],
    ['a bigint value', { ...ok, name: 'x', value: 1n }],
    ['a symbol value', { ...ok, name: 'x', value: Symbol('v') }],
    ['a number for CATEGORICAL', { ...ok, name: 'x', value: 1, dataType: 'CATEGORICAL' }],
    ['a string for NUMERIC', { ...ok, name: 'x', value: '1', dataType: 'NUMERIC' }],
    ['2 for BOOLEAN', { ...ok, name: 'x', value: 2, dataType: 'BOOLEAN' }],
    ['an unknown dataType', { ...ok, name: 'x', value: 1, dataType: 'PERCENT' }],
    ['circular metadata', { ...ok, name: 'x', value: 1, metadata: circular }],
    ['bigint metadata', { ...ok, name: 'x', value: 1, metadata: { n: 1n } }],
    ['function metadata', { ...ok, name: 'x', value: 1, metadata: () => 1 }],
    ['a non-string traceId', { traceId: 123, name: 'x', value: 1 }],
    ['an empty id', { ...ok, id: '', name: 'x', value: 1 }],
    ['a non-string comment', { ...ok, name: 'x', value: 1, comment: { text: 'hi' } }],
    ['no target', { name: 'x', value: 1 }],
    ['observationId without traceId', { observationId: SPAN_ID, name: 'x', value: 1 }],
    ['a throwing getter', throwing],
    ['a hostile proxy', hostile],
  ];

  it(`drops ${garbage.length} kinds of garbage with an error log each, never throwing`, async () => {
    const client = clientFor(server, { flushAt: 1 });
    for (const [, input] of garbage) {
      expect(() => client.score.create(input as never)).not.toThrow();
    }
    await client.score.flush();
    expect(server.scoreRequests).toHaveLength(0);
    const errors = messages(logs, 'error');
    expect(errors).toHaveLength(garbage.length);
    for (const e of errors) expect(e).toMatch(/^Obs dropped an invalid score: /);
    await client.shutdown();
  });

  it.each(garbage)('observation(), trace(), activeObservation(), activeTrace() drop %s too', async (_, input) => {
    const client = clientFor(server, { flushAt: 1 });
    const obs = { id: SPAN_ID, traceId: TRACE_ID };
    const span = trace.wrapSpanContext({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: TraceFlags.SAMPLED });
    expect(() => client.score.observation(obs, input as never)).not.toThrow();
    expect(() => client.score.trace(obs, input as never)).not.toThrow();
    context.with(trace.setSpan(context.active(), span), () => {
      expect(() => client.score.activeObservation(input as never)).not.toThrow();
      expect(() => client.score.activeTrace(input as never)).not.toThrow();
    });
    await client.score.flush();
    // Those lacking only a target become valid once the observation supplies it.
    const targetOnly = ['no target', 'observationId without traceId', 'a non-string traceId'].includes(_);
    expect(server.scores.length).toBe(targetOnly ? 4 : 0);
  });

  it('drops scores whose target is unusable', async () => {
    const client = clientFor(server, { flushAt: 1 });
    const body = { name: 'x', value: 1 };
    const targets: unknown[] = [undefined, null, 'trace', {}, { id: SPAN_ID }, { traceId: 5, id: SPAN_ID }, { traceId: TRACE_ID, id: '' }];
    for (const t of targets) expect(() => client.score.observation(t as never, body)).not.toThrow();
    for (const t of targets.slice(0, 6)) expect(() => client.score.trace(t as never, body)).not.toThrow();
    expect(() => client.score.activeObservation(body)).not.toThrow(); // no active span
    expect(() => client.score.activeTrace(body)).not.toThrow();
    await client.score.flush();
    expect(server.scoreRequests).toHaveLength(0);
    expect(messages(logs, 'error')).toHaveLength(targets.length + 6 + 2);
    expect(messages(logs, 'error').at(-1)).toContain('no active span');
    await client.shutdown();
  });

  it('flush() and shutdown() never throw either', async () => {
    const client = clientFor(server);
    await expect(client.score.flush()).resolves.toBeUndefined();
    await expect(client.shutdown()).resolves.toBeUndefined();
    await expect(client.shutdown()).resolves.toBeUndefined();
  });
});

describe('targets', () => {
  it('observation(), trace(), activeObservation() and activeTrace() fill in the target', async () => {
    const client = clientFor(server, { flushAt: 1000 });
    const obs = { id: SPAN_ID, traceId: TRACE_ID };
    client.score.observation(obs, { name: 'obs', value: 1, comment: 'fine', metadata: { k: [1, 2] } });
    client.score.trace(obs, { name: 'trace', value: 'good', dataType: 'CATEGORICAL' });
    const otherTrace = '11111111111111111111111111111111';
    const span = trace.wrapSpanContext({ traceId: otherTrace, spanId: '2222222222222222', traceFlags: TraceFlags.SAMPLED });
    context.with(trace.setSpan(context.active(), span), () => {
      client.score.activeObservation({ name: 'active-obs', value: 0, dataType: 'BOOLEAN' });
      client.score.activeTrace({ name: 'active-trace', value: 0.5 });
    });
    client.score.create({ sessionId: 'session-1', name: 'session', value: 3 });
    await client.score.flush();

    const byName = Object.fromEntries(server.scores.map((s) => [s.name, s]));
    expect(byName.obs).toMatchObject({ traceId: TRACE_ID, observationId: SPAN_ID, value: 1, comment: 'fine', metadata: { k: [1, 2] } });
    expect(byName.trace).toMatchObject({ traceId: TRACE_ID, value: 'good', dataType: 'CATEGORICAL' });
    expect(byName.trace).not.toHaveProperty('observationId');
    expect(byName['active-obs']).toMatchObject({ traceId: otherTrace, observationId: '2222222222222222', dataType: 'BOOLEAN' });
    expect(byName['active-trace']).toMatchObject({ traceId: otherTrace });
    expect(byName['active-trace']).not.toHaveProperty('observationId');
    expect(byName.session).toMatchObject({ sessionId: 'session-1' });
    await client.shutdown();
  });

  it('a run-level score targets an experiment with datasetRunId alone; observation scores never carry one', async () => {
    const client = clientFor(server, { flushAt: 1000 });
    client.score.create({ datasetRunId: 'run-1', name: 'avg_accuracy', value: 0.75, comment: 'mean of 4' });
    client.score.create({ datasetRunId: '', name: 'empty', value: 1 });
    client.score.trace({ traceId: TRACE_ID }, { name: 'item', value: 1, datasetRunId: 'sneaked-in' } as never);
    await client.score.flush();
    expect(server.scores).toHaveLength(2);
    expect(server.scores[0]).toMatchObject({ datasetRunId: 'run-1', name: 'avg_accuracy', value: 0.75, comment: 'mean of 4' });
    expect(server.scores[0]).not.toHaveProperty('traceId');
    expect(server.scores[1]).toMatchObject({ traceId: TRACE_ID, name: 'item' });
    expect(server.scores[1]).not.toHaveProperty('datasetRunId');
    expect(messages(logs, 'error')).toEqual(['Obs dropped an invalid score: datasetRunId must be a non-empty string']);
    client.score.create({ name: 'nothing', value: 1 });
    await client.score.flush();
    expect(messages(logs, 'error')[1]).toBe('Obs dropped an invalid score: a score needs a target: traceId, sessionId or datasetRunId');
    await client.shutdown();
  });

  it('sends a snapshot: changing the body after create() changes nothing', async () => {
    const client = clientFor(server, { flushAt: 1000 });
    const metadata = { step: 1 };
    const body = { traceId: TRACE_ID, name: 'snap', value: 1, metadata };
    client.score.create(body);
    body.value = 2;
    metadata.step = 2;
    await client.score.flush();
    expect(server.scores[0]).toMatchObject({ value: 1, metadata: { step: 1 } });
    await client.shutdown();
  });
});

describe('queue bound and shutdown', () => {
  it('drops past maxQueueSize with an error log, and sends the rest', async () => {
    const client = clientFor(server, { flushAt: 10_000, flushInterval: 60, maxQueueSize: 50 });
    for (let i = 0; i < 80; i++) client.score.create(score(i));
    await client.score.flush();
    expect(server.scores).toHaveLength(50);
    const errors = messages(logs, 'error');
    expect(errors[0]).toMatch(/^Obs score queue is full \(50 scores waiting\)/);
    expect(errors[1]).toBe('Obs dropped 30 scores because the score queue was full');
    await client.shutdown();
  });

  it('shutdown() loses nothing accepted, even while requests are slow', async () => {
    const client = clientFor(server, { flushAt: 40, flushInterval: 60 });
    server.injectFault({ path: '/api/public/scores', delayMs: 100, times: 2 });
    for (let i = 0; i < 130; i++) client.score.create(score(i));
    await new Promise((r) => setTimeout(r, 10)); // some batches are now in flight
    for (let i = 130; i < 135; i++) client.score.create(score(i));
    await client.shutdown();
    expect(new Set(server.scores.map((s) => s.id)).size).toBe(135);

    // Still usable afterwards: later scores go out at the end of their tick.
    client.score.create(score(999));
    await server.waitFor(() => server.scores.some((s) => s.id === 'score-999'));
  });
});

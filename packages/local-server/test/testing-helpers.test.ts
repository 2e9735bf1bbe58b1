/**
 * The helpers of `@obs/local-server/testing` that read a trace back (`initTestObs`, `traced`,
 * `traceOf`, `oneSpan`, `obsAttr`, `obsJson`, `obsEnding`, `freePort`, `setupWrapperTest`) or
 * drive a stream (`readStream`), against the real server: spans made by OpenTelemetry's SDK,
 * sent as OTLP protobuf by a stand-in `initObs` whose `flush` posts them.
 */
import { createServer } from 'node:net';
import { ROOT_CONTEXT, type Span, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import {
  freePort,
  initTestObs,
  obsAttr,
  obsEnding,
  obsJson,
  type ObsConnection,
  oneSpan,
  readStream,
  setupObsServer,
  setupWrapperTest,
  startStandInApi,
  traced,
  traceOf,
} from '../src/testing.js';
import { basic, toProtobuf } from './helpers.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('obs-sdk', '6.0.0');
/** The stand-in's active observation (one at a time in these tests). */
let active: Span | undefined;

type StandInOptions = ObsConnection & { flushInterval: number; flushOnExit: boolean; environment?: string };
const initCalls: StandInOptions[] = [];

/** A stand-in `initObs`: its handle's `flush` posts the ended spans to the server, as OTLP protobuf. */
function standInInitObs(options: StandInOptions) {
  initCalls.push(options);
  return {
    async flush(): Promise<void> {
      const spans = exporter.getFinishedSpans();
      exporter.reset();
      if (spans.length === 0) return;
      const res = await fetch(`${options.baseUrl}/api/public/otel/v1/traces`, {
        method: 'POST',
        headers: { authorization: basic(options.publicKey, options.secretKey), 'content-type': 'application/x-protobuf' },
        body: toProtobuf(spans),
      });
      if (!res.ok) throw new Error(`the server answered ${res.status}`);
    },
  };
}

/** `startActiveObservation` of the stand-in: a root span active while `fn` runs, ended after it. */
function startActive<T>(name: string, fn: (observation: { traceId: string }) => T): T {
  const span = tracer.startSpan(name, {}, ROOT_CONTEXT);
  active = span;
  const end = () => {
    active = undefined;
    span.end();
  };
  try {
    const result = fn({ traceId: span.spanContext().traceId });
    if (result instanceof Promise) return result.finally(end) as T;
    end();
    return result;
  } catch (err) {
    end();
    throw err;
  }
}

/** A child observation under the active one, with an input and a type. */
function child(name: string, input: unknown): void {
  const parent = active ? trace.setSpan(ROOT_CONTEXT, active) : ROOT_CONTEXT;
  tracer
    .startSpan(name, { attributes: { 'obs.observation.type': 'generation', 'obs.observation.input': JSON.stringify(input) } }, parent)
    .end();
}

const obs = setupObsServer({ init: initTestObs(standInInitObs, { environment: 'test' }) });

describe('@obs/local-server/testing helpers', () => {
  it('initTestObs passes the connection, a 50 ms flush interval, no exit hooks, and the options given', () => {
    expect(initCalls).toEqual([{ ...obs.connection, flushInterval: 0.05, flushOnExit: false, environment: 'test' }]);
  });

  it('traced: the root, its children in start order, the result, and obsAttr/obsJson of them', async () => {
    const run = await traced(obs, startActive, async () => {
      child('first', { q: 1 });
      await new Promise((r) => setTimeout(r, 2));
      child('second', { q: 2 });
      return 'done';
    });
    expect(run.result).toBe('done');
    expect(run.error).toBeUndefined();
    expect(run.root.name).toBe('test');
    expect(run.spans).toHaveLength(3);
    expect(run.children.map((s) => s.name)).toEqual(['first', 'second']);
    expect(run.children.every((s) => s.parentSpanId === run.root.spanId)).toBe(true);
    expect(obsAttr(run.one('first'), 'type')).toBe('generation');
    expect(obsJson(run.one('second'), 'input')).toEqual({ q: 2 });
    expect(run.all('second')).toHaveLength(1);
  });

  it('traced: a throw of the work comes back as `error`, and its trace is read all the same', async () => {
    const boom = new Error('boom');
    const run = await traced(
      obs,
      startActive,
      () => {
        child('before-the-throw', {});
        throw boom;
      },
      'failing',
    );
    expect(run.error).toBe(boom);
    expect(run.root.name).toBe('failing');
    expect(run.children.map((s) => s.name)).toEqual(['before-the-throw']);
  });

  it('traceOf waits for the root and N spans; with settleMs or exact it fails when more arrived', async () => {
    let traceId = '';
    startActive('request', (observation) => {
      traceId = observation.traceId;
      child('a', 1);
      child('b', 2);
    });
    // Sent after traceOf started waiting: it waits for them.
    const waiting = traceOf(obs.server, traceId, { spans: 3 });
    setTimeout(() => void obs.handle.flush(), 20);
    const arrived = await waiting;
    expect(arrived.root.name).toBe('request');
    expect(arrived.spans).toHaveLength(3);
    await expect(traceOf(obs.server, traceId, { spans: 2, settleMs: 20 })).rejects.toThrow('3 spans of trace');
    await expect(traceOf(obs.server, traceId, { spans: 2, exact: true })).rejects.toThrow('3 spans of trace');
    expect((await traceOf(obs.server, traceId, { spans: 3, exact: true })).spans).toHaveLength(3);
    await expect(traceOf(obs.server, traceId, { spans: 4, timeoutMs: 50 })).rejects.toThrow();
    await expect(traceOf(obs.server, 'not-a-trace-id')).rejects.toThrow('not a trace id: not-a-trace-id');
  });

  it('oneSpan names the trace when a name is missing or repeated', async () => {
    const run = await traced(obs, startActive, () => {
      child('twice', 1);
      child('twice', 2);
    });
    expect(() => oneSpan(run.spans, 'twice')).toThrow('2 spans named "twice" among: ');
    expect(() => oneSpan(run.spans, 'never')).toThrow('0 spans named "never"');
    expect(
      obsJson(
        oneSpan(run.spans, 'twice', (s) => obsJson(s, 'input') === 2),
        'input',
      ),
    ).toBe(2);
    expect(obsAttr(undefined, 'type')).toBeUndefined();
  });

  it('freePort: a port nothing listens on, that a server can take', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    expect((server.address() as { port: number }).port).toBe(port);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});

describe('a stream driven to its ending, and how its observation ended', () => {
  async function* numbers(count: number, failAt = -1) {
    for (let i = 0; i < count; i++) {
      if (i === failAt) throw new Error(`failed at ${i}`);
      yield i;
    }
  }

  it('readStream: to the end, or left when told (which closes the stream); a throw comes back as `error`', async () => {
    expect(await readStream(numbers(3))).toEqual({ items: [0, 1, 2], error: undefined });
    let closed = false;
    async function* watched() {
      try {
        yield* numbers(5);
      } finally {
        closed = true;
      }
    }
    const seen: number[] = [];
    const left = await readStream(watched(), { each: (n, i) => seen.push(n * 10 + i), leaveAfter: (n) => n === 1 });
    expect(left).toEqual({ items: [0, 1], error: undefined });
    expect(seen).toEqual([0, 11]);
    expect(closed).toBe(true);
    const failed = await readStream(numbers(5, 2));
    expect(failed.items).toEqual([0, 1]);
    expect((failed.error as Error).message).toBe('failed at 2');
  });

  it('obsEnding: level, status message, output and usage as sent (parsed), and where the first chunk fell', async () => {
    const t0 = Date.now();
    /** A generation from t0 to t0 + 10 ms whose first chunk came at t0 + `firstMs`. */
    const generation = (name: string, firstMs: number | undefined, attributes: Record<string, string> = {}) => {
      const parent = trace.setSpan(ROOT_CONTEXT, active!);
      const first = firstMs === undefined ? {} : { 'obs.observation.completion_start_time': new Date(t0 + firstMs).toISOString() };
      const prefixed = Object.fromEntries(Object.entries(attributes).map(([k, v]) => [`obs.observation.${k}`, v]));
      tracer.startSpan(name, { startTime: t0, attributes: { ...prefixed, ...first } }, parent).end(t0 + 10);
    };
    const run = await traced(obs, startActive, () => {
      generation('well', 4, { output: '{"content":"Sunny."}', usage_details: '{"input":3,"output":2,"total":5}' });
      generation('cut', 10, { level: 'ERROR', status_message: 'socket hang up', output: '{"content":"Sun"}' });
      generation('early', 0);
      generation('late', 11);
      generation('unary', undefined, { output: '"hi"' });
    });
    // toEqual leaves out what is undefined: these say that no level or status message was set.
    expect(obsEnding(run.one('well'))).toEqual({
      output: { content: 'Sunny.' },
      usage: { input: 3, output: 2, total: 5 },
      completionStart: 'within',
    });
    expect(obsEnding(run.one('cut'))).toEqual({
      level: 'ERROR',
      statusMessage: 'socket hang up',
      output: { content: 'Sun' },
      usage: undefined,
      completionStart: 'at the end',
    });
    expect(obsEnding(run.one('early')).completionStart).toBe('not after the start');
    expect(obsEnding(run.one('late')).completionStart).toBe('after the end');
    expect(obsEnding(run.one('unary'))).toEqual({ output: 'hi' });
    // ...and fail on an ending that has them.
    expect(obsEnding(run.one('cut'))).not.toEqual({ output: { content: 'Sun' }, completionStart: 'at the end' });
  });
});

describe('setupWrapperTest', () => {
  const SECRET = 'sk-DO-NOT-EXPORT';
  const t = setupWrapperTest({ init: initTestObs(standInInitObs), start: startActive, standIn: startStandInApi, secret: 'DO-NOT-EXPORT' });
  /** A wrapped SDK's call: one request to the stand-in, one child observation holding `input`. */
  const call = async (input: unknown) => {
    t.fake.reply('/v1/chat', { json: { ok: true } });
    const res = await fetch(`${t.fake.url}/v1/chat`, { method: 'POST', headers: { authorization: `Bearer ${SECRET}` }, body: '{}' });
    child('chat', input);
    return res.json();
  };

  it('runs a call under a root and returns its result and the spans under it; the stand-in got the call', async () => {
    const { result, spans } = await t.traced(() => call({ q: 1 }));
    expect(result).toEqual({ ok: true });
    expect(spans.map((s) => [s.name, obsJson(s, 'input')])).toEqual([['chat', { q: 1 }]]);
    expect(t.fake.calls).toHaveLength(1);
    expect(t.fake.calls[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it("empties the stand-in's calls before each test", () => {
    expect(t.fake.calls).toHaveLength(0);
  });

  it('fails when a span of the call does not hang directly under the root', async () => {
    await expect(
      t.traced(async () => {
        const step = tracer.startSpan('step', {}, trace.setSpan(ROOT_CONTEXT, active!));
        tracer.startSpan('nested', {}, trace.setSpan(ROOT_CONTEXT, step)).end();
        step.end();
      }),
    ).rejects.toThrow('nested hangs under the root');
  });

  it('fails when a span holds the secret, and rethrows what the call threw', async () => {
    await expect(t.traced(() => call({ key: SECRET }))).rejects.toThrow('DO-NOT-EXPORT');
    await expect(
      t.traced(async () => {
        throw new Error('the SDK failed');
      }),
    ).rejects.toThrow('the SDK failed');
  });
});

/**
 * The hand-written OTLP protobuf encoder (`encodeTraceExportRequest`) against the official one
 * (`ProtobufTraceSerializer` of @opentelemetry/otlp-transformer): on the same spans, the same
 * bytes, and the same spans when the local server's decoder reads both. Real SDK spans with
 * every attribute type, events, links, statuses, remote parents, trace state, several scopes
 * and resources; synthetic spans for the values the SDK would not let through (kvlists, bytes,
 * nested arrays, int64 edges, lone surrogates); Node (Buffer) and edge (TextEncoder) paths; and
 * end to end through `ObsSpanProcessor` to the local server, with node:http and with fetch.
 */
import { decodeOtlpProtobuf, type DecodedSpan } from '@obs/local-server';
import { createTraceState, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Tracer } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { ObsOtlpExporter, ObsSpanProcessor } from '../../src/index.js';
import { TRACES_PATH } from '../../src/kit.js';
import { EncodedSpanBatch, encodeTraceExportRequest } from '../../src/export/otlp/otlp-proto-encoder.js';
import { LightTracerProvider } from '../../src/tracing/provider/light-provider.js';
import { captureLogs, restoreLogger, TRACING_KEYS } from '../tracing/harness.js';
import { setupObsServer } from '@obs/local-server/testing';

const LONG_ASCII = 'The quick brown fox jumps over the lazy dog. '.repeat(40);
const LONG_UNICODE = 'héllo wörld — 日本語のテキスト 😀🚀 '.repeat(30);
const UNICODE: Record<string, string> = {
  latin: 'héllo wörld',
  cjk: '日本語',
  emoji: '😀🚀',
  mixed16: 'abcdefghij-日本語-😀-xyz', // past the native-length threshold
  mixed40: 'a rather long string with ünïcödé in the middle of it, past 32',
  loneHigh: 'a\ud800b',
  loneHighEnd: 'abc\ud83d',
  loneLow: '\udc00xyz',
  loneLongHigh: `${'x'.repeat(40)}\ud800${'y'.repeat(40)}`,
  loneLongLowEnd: `${'x'.repeat(40)}\udc00`,
  empty: '',
};

/** Every attribute type the SDK accepts. */
const ALL_TYPES: Attributes = {
  'str.ascii': 'plain value',
  'str.long': LONG_ASCII,
  'str.long.unicode': LONG_UNICODE,
  ...Object.fromEntries(Object.entries(UNICODE).map(([k, v]) => [`str.${k}`, v])),
  'ключ.юникод': 'unicode key',
  ['k'.repeat(200)]: 'a key longer than 127 bytes',
  'int.zero': 0,
  'int.small': 42,
  'int.negative': -7,
  'int.u32': 4_294_967_295,
  'int.big': 2 ** 40 + 3,
  'int.bigNegative': -(2 ** 40) - 3,
  'int.maxSafe': Number.MAX_SAFE_INTEGER,
  'int.minSafe': Number.MIN_SAFE_INTEGER,
  'int.2^62': 2 ** 62,
  'double.half': 1.5,
  'double.negative': -0.001,
  'double.tiny': 5e-324,
  'double.huge': 1e300,
  'double.2^63': 2 ** 63,
  'double.inf': Infinity,
  'double.negInf': -Infinity,
  'double.nan': NaN,
  'bool.true': true,
  'bool.false': false,
  'arr.strings': ['a', 'héllo', '', LONG_ASCII],
  'arr.numbers': [1, -2, 3.25, 2 ** 50],
  'arr.bools': [true, false, true],
  'arr.empty': [],
  'arr.withNulls': ['x', null, 'y', undefined],
};

/** Real spans of two resources and four scopes, interleaved. */
function realSpans(): ReadableSpan[] {
  // One exporter for both providers keeps the interleaving order of span ends.
  const shared = new InMemorySpanExporter();
  const providerA = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'svc-a', 'service.version': '1.2.3', 'host.pid': 1234, 'ünïcode.attr': 'ÿes' }),
    spanProcessors: [new SimpleSpanProcessor(shared)],
  });
  const providerB = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'svc-b', 'deployment.environment': 'test' }),
    spanProcessors: [new SimpleSpanProcessor(shared)],
  });
  const tracers: Tracer[] = [
    providerA.getTracer('obs-sdk', '6.0.0'),
    providerA.getTracer('no-version'),
    providerA.getTracer('with-schema', '0.1.0', { schemaUrl: 'https://opentelemetry.io/schemas/1.26.0' }),
    providerB.getTracer('obs-sdk', '6.0.0'),
  ];
  const [t0, t1, t2, t3] = tracers as [Tracer, Tracer, Tracer, Tracer];

  const root = t0.startSpan('root: every type', { kind: SpanKind.SERVER, attributes: ALL_TYPES });
  root.addEvent('event with attributes', { 'ev.str': 'value', 'ev.int': 3, 'ev.arr': ['a', 'b'], 'ev.unicode': '日本語' });
  root.addEvent('event without attributes');
  root.addEvent('événement ünïcode 😀', { k: LONG_UNICODE }, [1_700_000_000, 123_456_789]);
  root.recordException(new Error('boom: ünïcode message'));
  root.setStatus({ code: SpanStatusCode.ERROR, message: 'it failed — badly 😀' });
  const rootCtx = trace.setSpan(ROOT_CONTEXT, root);

  for (const [i, kind] of [SpanKind.INTERNAL, SpanKind.CLIENT, SpanKind.PRODUCER, SpanKind.CONSUMER].entries()) {
    const child = tracers[i % 3]!.startSpan(`child ${i} ${UNICODE.cjk}`, { kind, attributes: { i, 'str.emoji': UNICODE.emoji! } }, rootCtx);
    child.setStatus({ code: i % 2 ? SpanStatusCode.OK : SpanStatusCode.UNSET });
    child.end();
  }

  const linked = t1.startSpan('with links', {
    links: [
      { context: root.spanContext(), attributes: { 'link.reason': 'caused by', 'link.n': 1 } },
      {
        context: {
          traceId: '0af7651916cd43dd8448eb211c80319c',
          spanId: 'b7ad6b7169203331',
          traceFlags: 0,
          isRemote: true,
          traceState: createTraceState('vendor=abc,other=1'),
        },
      },
    ],
  });
  linked.addLink({ context: { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 } });
  linked.end();

  // A remote parent with trace state, not sampled-by-default flags.
  const remote = trace.setSpanContext(ROOT_CONTEXT, {
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: '00f067aa0ba902b7',
    traceFlags: 1,
    isRemote: true,
    traceState: createTraceState('congo=t61rcWkgMzE,rojo=00f067aa0ba902b7'),
  });
  const fromRemote = t2.startSpan('from a remote parent', { attributes: { 'x.y': 'z' } }, remote);
  fromRemote.end();

  const other = t3.startSpan('other resource', { attributes: { 'bool.true': true, 'arr.numbers': [1, 2] } });
  other.addEvent('e', { a: 1 });
  other.end();
  const other2 = t3.startSpan('other resource, child', {}, trace.setSpan(ROOT_CONTEXT, other));
  other2.end();

  // An explicit long start and end in the past, and a span with an empty name.
  t0.startSpan('', { startTime: [1, 5] }).end([2, 999_999_999]);
  t0.startSpan('far future', { startTime: [4_102_444_800, 1] }).end([4_102_444_801, 0]);
  root.end();
  return shared.getFinishedSpans();
}

/** Spans as plain objects: values and shapes the SDK would sanitise away. */
function syntheticSpans(): ReadableSpan[] {
  const resource = {
    attributes: { 'service.name': 'synthetic', nested: { a: 1, b: ['x', { c: true }] } as never },
    schemaUrl: 'https://example.com/resource-schema',
  } as unknown as ReadableSpan['resource'];
  const scope = {
    name: 'synthetic-scope',
    version: '',
    schemaUrl: 'https://example.com/scope',
    attributes: { 'scope.attr': 'v' },
    droppedAttributesCount: 2,
  };
  const base = {
    resource,
    instrumentationScope: scope,
    spanContext: () => ({ traceId: 'ABCDEF0123456789abcdef0123456789', spanId: '0123456789ABCDEF', traceFlags: 3 }),
    parentSpanContext: { traceId: 'abcdef0123456789abcdef0123456789', spanId: 'fedcba9876543210', traceFlags: 1, isRemote: false },
    startTime: [1_700_000_000, 1] as [number, number],
    endTime: [1_700_000_001, 999_999_999] as [number, number],
    duration: [1, 999_999_998] as [number, number],
    ended: true,
    status: { code: 0 },
    events: [],
    links: [],
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
  const exotic = {
    kvlist: { a: 'x', b: 2, c: { deep: [1, 'two', null, { three: 3 }] } },
    bytes: new Uint8Array([0, 1, 2, 255]),
    nestedArrays: [
      [1, 2],
      ['a', ['b']],
    ],
    mixedArray: ['s', 1, 2.5, true, null, undefined, { k: 'v' }],
    undef: undefined,
    nul: null,
    big: 10n,
    fn: () => 1,
    'int.min64': -(2 ** 63),
    'int.maxBelow2^63': 2 ** 63 - 1024,
    'int.-2^32': -(2 ** 32),
    'neg.zero': -0,
    hugeString: 'z'.repeat(70_000), // three-byte lengths, all the way up
  };
  return [
    {
      ...base,
      name: 'exotic values',
      kind: SpanKind.INTERNAL,
      attributes: exotic,
      droppedAttributesCount: 300,
      droppedEventsCount: 1,
      droppedLinksCount: 2,
      events: [{ name: 'ev', time: [1_700_000_000, 500], attributes: { list: { a: 1 } as never }, droppedAttributesCount: 4 }],
      links: [
        { context: { traceId: 'abcdef0123456789abcdef0123456789', spanId: '1111111111111111', traceFlags: 1 }, droppedAttributesCount: 1 },
      ],
      status: { code: 2, message: '' },
    },
    {
      ...base,
      name: 'no kind, no attributes object',
      kind: undefined as unknown as SpanKind,
      attributes: undefined as unknown as Attributes,
      parentSpanContext: undefined,
    },
    ...Array.from({ length: 300 }, (_, i) => ({ ...base, name: `bulk ${i}`, kind: SpanKind.CLIENT, attributes: { i, s: 'v'.repeat(i) } })),
  ] as unknown as ReadableSpan[];
}

function official(spans: ReadableSpan[]): Buffer {
  return Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
}

/** Same bytes as the official encoder, and the same spans once decoded. */
function expectSameAsOfficial(spans: ReadableSpan[], encode: (s: ReadableSpan[]) => Uint8Array = encodeTraceExportRequest): DecodedSpan[] {
  const expected = official(spans);
  const ours = encode(spans);
  const decoded = decodeOtlpProtobuf(ours);
  expect(decoded).toEqual(decodeOtlpProtobuf(expected));
  expect(decoded).toHaveLength(spans.length);
  // Byte for byte, which also covers what the local decoder skips (flags, trace state, dropped counts, schema URLs).
  expect(Buffer.from(ours.buffer, ours.byteOffset, ours.byteLength).equals(expected)).toBe(true);
  return decoded;
}

describe('encodeTraceExportRequest', () => {
  it('real SDK spans (every attribute type, events, links, statuses, remote parent, scopes, resources): same as the official encoder', () => {
    const spans = realSpans();
    expect(spans.length).toBeGreaterThanOrEqual(10);
    const decoded = expectSameAsOfficial(spans);
    const root = decoded.find((s) => s.name === 'root: every type')!;
    // Spot checks against the source, independent of the official encoder.
    expect(root.attributes['str.emoji']).toBe('😀🚀');
    expect(root.attributes['str.loneHigh']).toBe('a\ufffdb');
    expect(root.attributes['int.bigNegative']).toBe(-(2 ** 40) - 3);
    expect(root.attributes['double.2^63']).toBe(2 ** 63);
    expect(root.attributes['arr.withNulls']).toEqual(['x', null, 'y', null]);
    expect(root.attributes['k'.repeat(200)]).toBe('a key longer than 127 bytes');
    expect(root.status).toEqual({ code: 2, message: 'it failed — badly 😀' });
    expect(root.kind).toBe(2);
    expect(root.events.map((e) => e.name)).toEqual([
      'event with attributes',
      'event without attributes',
      'événement ünïcode 😀',
      'exception',
    ]);
    expect(root.resource['service.name']).toBe('svc-a');
    expect(root.scope).toEqual({ name: 'obs-sdk', version: '6.0.0' });
    const children = decoded.filter((s) => s.parentSpanId === root.spanId);
    expect(children.map((c) => c.scope.name).sort()).toEqual(['no-version', 'obs-sdk', 'obs-sdk', 'with-schema']);
    expect(decoded.find((s) => s.name === 'with links')!.links).toHaveLength(3);
    expect(decoded.find((s) => s.name === 'far future')!.startTimeUnixNano).toBe(4_102_444_800_000_000_001n);
  });

  it('synthetic spans (kvlists, bytes, nested arrays, int64 edges, undefined values, 70 KB strings): same as the official encoder', () => {
    const decoded = expectSameAsOfficial(syntheticSpans());
    const exotic = decoded[0]!;
    expect(exotic.attributes.kvlist).toEqual({ a: 'x', b: 2, c: { deep: [1, 'two', null, { three: 3 }] } });
    expect(exotic.attributes.bytes).toBe('000102ff');
    expect(exotic.attributes.undef).toBeNull();
    expect(exotic.attributes['int.min64']).toBe(-(2 ** 63));
    expect(exotic.traceId).toBe('abcdef0123456789abcdef0123456789');
  });

  it('a large batch across resources and scopes, span order interleaved: same as the official encoder', () => {
    const spans = [...realSpans(), ...syntheticSpans()];
    const big: ReadableSpan[] = [];
    for (let i = 0; i < 2000; i++) big.push(spans[(i * 7) % spans.length]!);
    expectSameAsOfficial(big);
  });

  it('two batches filled span by span, turn after turn, with other encodings in between: each the same as the official encoder', () => {
    // How the processor fills a batch: one span at a time as spans end, while the module's
    // scratch state serves other encodings (another batch, a custom exporter's request) between.
    const spans = [...realSpans(), ...syntheticSpans()];
    const parts: [ReadableSpan[], ReadableSpan[]] = [[], []];
    const batches = [new EncodedSpanBatch(), new EncodedSpanBatch()];
    for (let i = 0; i < 600; i++) {
      const span = spans[(i * 5) % spans.length]!;
      parts[i % 2]!.push(span);
      batches[i % 2]!.add(span);
      if (i % 50 === 0) encodeTraceExportRequest(spans.slice(0, 3));
    }
    expect(batches.map((b) => b.count)).toEqual([300, 300]);
    for (const k of [0, 1]) expectSameAsOfficial(parts[k]!, () => batches[k]!.finish());
  });

  it("obs's light spans (times written from epoch ms, not HrTime): same as the official encoder at rounding edges", () => {
    const shared = new InMemorySpanExporter();
    const provider = new LightTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'light' }),
      spanProcessors: [new SimpleSpanProcessor(shared)],
    });
    const tracer = provider.getTracer('obs-sdk', '6.0.0');
    // Epoch ms whose fraction rounds up to a whole second, sub-ns fractions, Dates, HrTimes,
    // performance timestamps, an end before the start, and the clock's own times.
    const times: [Parameters<Tracer['startSpan']>[1], number | Date | [number, number] | undefined][] = [
      [{ startTime: 1_700_000_000_999 + 0.9999999 }, 1_700_000_001_000 + 4e-7],
      [{ startTime: 1_700_000_000_123 + 0.4567891 }, 1_700_000_000_123 + 0.4567894],
      [{ startTime: new Date(1_700_000_000_000) }, new Date(1_700_000_000_001)],
      [{ startTime: [1_700_000_000, 999_999_999] }, [1_700_000_001, 1]],
      [{ startTime: [1, 999_999_999.6] }, [2, 0]], // the nanoseconds round up to a whole second
      [{ startTime: 4_102_444_800_000 + 1e-6 }, 4_102_444_800_000.5],
      [{ startTime: performance.now() - 5 }, performance.now()],
      [{ startTime: 1_700_000_000_500 }, 1_700_000_000_400],
      [{}, undefined],
    ];
    for (const [i, [options, end]] of times.entries()) tracer.startSpan(`t${i}`, options).end(end);
    const spans = shared.getFinishedSpans();
    expect(spans).toHaveLength(times.length);
    const decoded = expectSameAsOfficial(spans);
    expect(decoded[2]!.startTimeUnixNano).toBe(1_700_000_000_000_000_000n);
    // Epoch-ms doubles hold times to a quarter of a microsecond.
    expect(Number(decoded[3]!.endTimeUnixNano - 1_700_000_001_000_000_001n)).toBeLessThan(250);
    expect(decoded[4]!.startTimeUnixNano).toBe(2_000_000_000n);
    expect(decoded[7]!.endTimeUnixNano).toBe(decoded[7]!.startTimeUnixNano); // clamped to the start
  });

  it('an empty batch', () => {
    expect(encodeTraceExportRequest([])).toHaveLength(0);
    expect(official([])).toHaveLength(0);
  });

  it('cached resource and scope bytes stay right from batch to batch; a resource still settling is re-read', () => {
    const spans = realSpans();
    const first = Buffer.from(encodeTraceExportRequest(spans));
    expect(Buffer.from(encodeTraceExportRequest(spans)).equals(first)).toBe(true);
    expect(Buffer.from(encodeTraceExportRequest(spans.slice(3))).equals(official(spans.slice(3)))).toBe(true);
    // A resource whose async attributes are pending may change: never cached.
    const pending = { attributes: { 'service.name': 'before' } as Attributes, asyncAttributesPending: true };
    const [template] = syntheticSpans();
    const span = { ...template, resource: pending } as unknown as ReadableSpan;
    expectSameAsOfficial([span]);
    pending.attributes = { 'service.name': 'after', 'host.name': 'h' };
    const decoded = expectSameAsOfficial([span]);
    expect(decoded[0]!.resource).toEqual({ 'service.name': 'after', 'host.name': 'h' });
  });

  it('attribute keys past the key cache limit still encode right', () => {
    const [template] = syntheticSpans();
    const many: ReadableSpan[] = [];
    for (let b = 0; b < 3; b++) {
      const attributes: Attributes = {};
      for (let i = 0; i < 3000; i++) attributes[`key.${b}.${i}`] = i;
      many.push({ ...template, attributes } as unknown as ReadableSpan);
    }
    expectSameAsOfficial(many);
  });

  it('without Node.js Buffer (edge runtimes: TextEncoder and JS loops): same bytes', async () => {
    const g = globalThis as { EdgeRuntime?: string };
    g.EdgeRuntime = 'edge-runtime';
    vi.resetModules();
    try {
      const edge = await import('../../src/export/otlp/otlp-proto-encoder.js');
      const out = edge.encodeTraceExportRequest(realSpans());
      expect(Buffer.isBuffer(out)).toBe(false);
      expectSameAsOfficial(realSpans(), edge.encodeTraceExportRequest);
      expectSameAsOfficial(syntheticSpans(), edge.encodeTraceExportRequest);
    } finally {
      delete g.EdgeRuntime;
      vi.resetModules();
    }
  });
});

describe('end to end: ObsSpanProcessor to the local server', () => {
  const local = setupObsServer({ ...TRACING_KEYS, reset: false });

  const strip = ({ encoding: _e, compressed: _c, ...rest }: DecodedSpan) => rest;
  const bySpanId = (a: { spanId: string }, b: { spanId: string }) => a.spanId.localeCompare(b.spanId);

  for (const [label, options] of [
    ['node:http, gzip', { compression: 'gzip' }],
    ['node:http, uncompressed', { compression: 'none' }],
    ['fetch, gzip', { compression: 'gzip', useFetch: true }],
  ] as const) {
    it(`${label}: the server decodes exactly the spans the official encoder would have sent`, async () => {
      local.server.reset();
      const memory = new InMemorySpanExporter();
      const connection = { baseUrl: local.server.url, publicKey: local.server.publicKey, secretKey: local.server.secretKey };
      const processor = new ObsSpanProcessor({
        ...connection,
        flushAt: 7,
        flushInterval: 60,
        shouldExportSpan: () => true,
        compression: options.compression,
        // The processor's own exporter unless fetch is forced.
        exporter:
          'useFetch' in options ? new ObsOtlpExporter({ ...connection, compression: options.compression, useFetch: true }) : undefined,
      });
      const provider = new NodeTracerProvider({
        resource: resourceFromAttributes({ 'service.name': 'e2e', ünïcode: '😀' }),
        spanProcessors: [processor, new SimpleSpanProcessor(memory)],
      });
      const t1 = provider.getTracer('obs-sdk', '6.0.0');
      const t2 = provider.getTracer('other-lib', '1.0.0');
      for (let i = 0; i < 20; i++) {
        const root = t1.startSpan(`request ${i} ${UNICODE.cjk}`, { kind: SpanKind.SERVER, attributes: { ...ALL_TYPES, i } });
        root.addEvent('ev', { n: i, s: UNICODE.emoji! });
        const child = t2.startSpan(
          'child',
          { attributes: { 'x.long': LONG_UNICODE }, links: [{ context: root.spanContext() }] },
          trace.setSpan(ROOT_CONTEXT, root),
        );
        child.setStatus({ code: SpanStatusCode.ERROR, message: `failed ${i} ✗` });
        child.end();
        root.end();
      }
      await processor.forceFlush();
      // Which client sent it: undici's fetch names itself, node:http sends no user agent.
      expect(local.server.requests[0]!.headers['user-agent']).toBe('useFetch' in options ? 'node' : undefined);
      const received = local.server.spans();
      expect(received).toHaveLength(40);
      expect(received.every((s) => s.encoding === 'protobuf' && s.compressed === (options.compression === 'gzip'))).toBe(true);
      const expected = decodeOtlpProtobuf(official(memory.getFinishedSpans()));
      expect(received.map(strip).sort(bySpanId)).toEqual(expected.map(strip).sort(bySpanId));
      await provider.shutdown();
    });
  }
});

describe('node:http transport', () => {
  it('follows a 307/308 within the same origin (body and credentials kept), not to another origin', async () => {
    const received: Array<{ path: string; headers: IncomingHttpHeaders; body: Buffer }> = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ path: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
        if (req.url === `/moved${TRACES_PATH}`) res.writeHead(308, { location: TRACES_PATH }).end();
        else if (req.url === `/elsewhere${TRACES_PATH}`) res.writeHead(307, { location: `http://localhost:1${TRACES_PATH}` }).end();
        else res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const spans = realSpans();
      const moved = new ObsOtlpExporter({ baseUrl: `${origin}/moved`, publicKey: 'pk', secretKey: 'sk', compression: 'none' });
      expect((await moved.send(spans)).code).toBe(0);
      expect(received.map((r) => r.path)).toEqual([`/moved${TRACES_PATH}`, TRACES_PATH]);
      expect(received[1]!.headers.authorization).toBe(received[0]!.headers.authorization);
      expect(received[1]!.body.equals(official(spans))).toBe(true);

      received.length = 0;
      const logs = captureLogs();
      const elsewhere = new ObsOtlpExporter({ baseUrl: `${origin}/elsewhere`, publicKey: 'pk', secretKey: 'sk', compression: 'none' });
      const result = await elsewhere.send(spans);
      expect(result.code).toBe(1);
      expect(result.error?.message).toMatch(/HTTP 307/);
      expect(received).toHaveLength(1);
      expect(logs.filter((l) => l.level === 'error').map((l) => l.message)).toEqual([expect.stringMatching(/HTTP 307/)]);
    } finally {
      restoreLogger();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

import { describe, expect, it } from 'vitest';
import { decodeOtlpJson, decodeOtlpProtobuf, OtlpDecodeError, type DecodedSpan } from '../src/index.js';
import { CHILD_ATTRIBUTES, makeSpans, pb, toJson, toProtobuf } from './helpers.js';

function checkTrace(spans: DecodedSpan[], encoding: 'protobuf' | 'json') {
  const source = makeSpans();
  expect(spans).toHaveLength(3);
  const byName = Object.fromEntries(spans.map((s) => [s.name, s]));
  const root = byName['POST /chat']!;
  const child = byName['llm-call']!;
  const grandchild = byName['search']!;

  const srcRoot = source.find((s) => s.name === 'POST /chat')!;
  expect(root.traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(root.spanId).toMatch(/^[0-9a-f]{16}$/);
  expect(root.parentSpanId).toBeUndefined();
  expect(child.parentSpanId).toBe(root.spanId);
  expect(grandchild.parentSpanId).toBe(child.spanId);
  expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
  expect(root.kind).toBe(2); // SERVER (OTLP numbering)
  expect(child.kind).toBe(3); // CLIENT
  expect(srcRoot.name).toBe(root.name);

  expect(child.attributes).toMatchObject(CHILD_ATTRIBUTES);
  expect(child.status).toEqual({ code: 2, message: 'boom' });
  expect(root.status).toEqual({ code: 0 });
  expect(child.events).toHaveLength(1);
  expect(child.events[0]!.name).toBe('token');
  expect(child.events[0]!.attributes).toEqual({ index: 3, text: 'he' });
  expect(typeof child.events[0]!.timeUnixNano).toBe('bigint');
  expect(child.links).toEqual([{ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16) }]);
  expect(root.scope).toEqual({ name: 'obs-sdk', version: '6.0.0' });
  expect(typeof root.resource['service.name']).toBe('string');

  expect(root.endTimeUnixNano).toBeGreaterThanOrEqual(root.startTimeUnixNano);
  expect(root.startTime.getTime()).toBe(Number(root.startTimeUnixNano / 1_000_000n));
  expect(Math.abs(root.startTime.getTime() - Date.now())).toBeLessThan(60_000);
  expect(root.durationMs).toBeCloseTo(Number(root.endTimeUnixNano - root.startTimeUnixNano) / 1e6, 6);
  expect(root.encoding).toBe(encoding);
}

describe('decodeOtlpProtobuf', () => {
  it('decodes a real ExportTraceServiceRequest', () => {
    const spans = decodeOtlpProtobuf(toProtobuf(makeSpans()), true);
    checkTrace(spans, 'protobuf');
    expect(spans[0]!.compressed).toBe(true);
  });

  it('decodes kvlist, bytes, negative int64, double and unknown fields', () => {
    const any = {
      str: (s: string) => pb.len(1, s),
      int: (n: bigint) => pb.int(3, n),
    };
    const kvlist = pb.len(6, pb.len(1, pb.kv('inner', any.str('v'))));
    const span = Buffer.concat([
      pb.len(1, Buffer.alloc(16, 1)),
      pb.len(2, Buffer.alloc(8, 2)),
      pb.len(4, Buffer.alloc(8, 0)), // all-zero parent = root
      pb.len(5, 'hand'),
      pb.int(6, 1),
      pb.fixed64(7, 1_700_000_000_000_000_000n),
      pb.fixed64(8, 1_700_000_000_250_000_000n),
      pb.len(9, pb.kv('obj', kvlist)),
      pb.len(9, pb.kv('bytes', pb.len(7, Buffer.from([0xde, 0xad])))),
      pb.len(9, pb.kv('neg', any.int(-5n))),
      pb.len(9, pb.kv('dbl', pb.double(4, 0.25))),
      pb.len(9, pb.kv('empty', Buffer.alloc(0))),
      pb.int(99, 7), // unknown field: skipped
    ]);
    const request = pb.len(1, Buffer.concat([pb.len(2, pb.len(2, span))]));
    const [s] = decodeOtlpProtobuf(request);
    expect(s).toMatchObject({
      traceId: '01'.repeat(16),
      spanId: '02'.repeat(8),
      name: 'hand',
      kind: 1,
      attributes: { obj: { inner: 'v' }, bytes: 'dead', neg: -5, dbl: 0.25, empty: null },
      scope: { name: '' },
      resource: {},
      compressed: false,
    });
    expect(s!.parentSpanId).toBeUndefined();
    expect(s!.durationMs).toBe(250);
    expect(s!.startTime.toISOString()).toBe('2023-11-14T22:13:20.000Z');
  });

  it('decodes UTF-8 text, a later duplicate key and a plain Uint8Array body; a key/value overrunning its span throws', () => {
    const text = 'héllo ✓ 🚀 '.repeat(20);
    const ids = Buffer.concat([pb.len(1, Buffer.alloc(16, 0xab)), pb.len(2, Buffer.alloc(8, 0xcd))]);
    const span = Buffer.concat([
      ids,
      pb.len(5, 'naïve ✓'),
      pb.len(9, pb.kv('text', pb.len(1, text))),
      pb.len(9, pb.kv('k', pb.len(1, 'first'))),
      pb.len(9, pb.kv('k', pb.len(1, 'second'))),
    ]);
    const request = pb.len(1, pb.len(2, pb.len(2, span)));
    const copy = new Uint8Array(request.length + 3).subarray(3);
    copy.set(request);
    const [s] = decodeOtlpProtobuf(copy);
    expect(s).toMatchObject({ traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), name: 'naïve ✓', attributes: { text, k: 'second' } });

    // A KeyValue claiming more bytes than its span holds: the span's bounds, not the body's, apply.
    const kv = pb.kv('k', pb.len(1, 'value'));
    const overrun = Buffer.concat([ids, Buffer.from([(9 << 3) | 2, kv.length + 4]), kv]);
    const bad = Buffer.concat([pb.len(1, pb.len(2, pb.len(2, overrun))), Buffer.alloc(8)]);
    expect(() => decodeOtlpProtobuf(bad)).toThrow(OtlpDecodeError);
  });

  it('throws OtlpDecodeError on garbage, never anything else', () => {
    expect(() => decodeOtlpProtobuf(Buffer.from('{"not":"protobuf"}'))).toThrow(OtlpDecodeError);
    const good = toProtobuf(makeSpans());
    expect(() => decodeOtlpProtobuf(good.subarray(0, good.length - 5))).toThrow(OtlpDecodeError);
    expect(decodeOtlpProtobuf(Buffer.alloc(0))).toEqual([]);
  });
});

describe('decodeOtlpJson', () => {
  it('decodes a real OTLP/JSON request', () => {
    checkTrace(decodeOtlpJson(toJson(makeSpans())), 'json');
  });

  it('accepts numbers or strings for 64-bit values, enum names, base64 bytes', () => {
    const [s] = decodeOtlpJson({
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'svc' } }] },
          scopeSpans: [
            {
              scope: { name: 'lib' },
              spans: [
                {
                  traceId: 'AB'.repeat(16),
                  spanId: 'cd'.repeat(8),
                  parentSpanId: '',
                  name: 'j',
                  kind: 'SPAN_KIND_SERVER',
                  startTimeUnixNano: 1_700_000_000_000_000_000,
                  endTimeUnixNano: '1700000000001000000',
                  attributes: [
                    { key: 'i', value: { intValue: '12' } },
                    { key: 'n', value: { intValue: 13 } },
                    { key: 'kv', value: { kvlistValue: { values: [{ key: 'a', value: { boolValue: false } }] } } },
                    { key: 'b', value: { bytesValue: Buffer.from([1, 2]).toString('base64') } },
                    { key: 'arr', value: { arrayValue: { values: [{ doubleValue: 2.5 }, { stringValue: 's' }] } } },
                  ],
                  status: { code: 'STATUS_CODE_OK' },
                },
              ],
            },
          ],
        },
      ],
    });
    expect(s).toMatchObject({
      traceId: 'ab'.repeat(16),
      kind: 2,
      attributes: { i: 12, n: 13, kv: { a: false }, b: '0102', arr: [2.5, 's'] },
      status: { code: 1 },
      resource: { 'service.name': 'svc' },
      scope: { name: 'lib' },
    });
    expect(s!.parentSpanId).toBeUndefined();
    expect(s!.durationMs).toBe(1);
  });

  it('throws OtlpDecodeError on malformed requests', () => {
    expect(() => decodeOtlpJson('{nope')).toThrow(OtlpDecodeError);
    expect(() => decodeOtlpJson({ resourceSpans: {} })).toThrow(OtlpDecodeError);
    expect(() => decodeOtlpJson({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 'xyz', spanId: '1' }] }] }] })).toThrow(/traceId/);
    expect(decodeOtlpJson({})).toEqual([]);
  });
});

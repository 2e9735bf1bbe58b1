/**
 * `splitTraceExportRequest`, which halves an encoded request when the server answers 413: each
 * half must be byte for byte what the encoder makes of that half of the spans (same resource and
 * scope heads, same span bytes), wherever the cut falls (inside a scope, between scopes, between
 * resources), so a split request means exactly what the original did.
 */
import { decodeOtlpProtobuf } from '@obs/local-server';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { encodeTraceExportRequest } from '../../src/export/otlp/otlp-proto-encoder.js';
import { splitTraceExportRequest } from '../../src/export/otlp/protobuf/split-request.js';

/** Spans of two resources (the second with a schema URL), each with two scopes (one versioned, with attributes). */
function spansOfTwoResources(perScope: number): ReadableSpan[] {
  const out: ReadableSpan[] = [];
  for (const [r, schemaUrl] of [
    ['service-a', undefined],
    ['service-b', 'https://opentelemetry.io/schemas/1.26.0'],
  ] as const) {
    const exporter = new InMemorySpanExporter();
    const resource = resourceFromAttributes({ 'service.name': r }, schemaUrl ? { schemaUrl } : undefined);
    const provider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracers = [
      provider.getTracer('scope-1'),
      provider.getTracer('scope-2', '2.0.0', { schemaUrl: 'https://example.com/scope-schema' }),
    ];
    for (const [s, tracer] of tracers.entries()) {
      for (let i = 0; i < perScope; i++) {
        tracer.startSpan(`${r}/${s}/${i}`, { attributes: { i, text: `span ${i} ${'x'.repeat(i * 50)}` } }).end();
      }
    }
    out.push(...exporter.getFinishedSpans());
  }
  return out;
}

const bytes = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

describe('splitTraceExportRequest', () => {
  it.each([2, 3, 5, 6, 7, 11, 12])('%i spans: two halves, each the encoding of its half of the spans', (count) => {
    const spans = spansOfTwoResources(3).slice(0, count);
    const parts = splitTraceExportRequest(encodeTraceExportRequest(spans));
    const half = Math.ceil(count / 2);
    expect(parts.map((p) => p.items)).toEqual([half, count - half]);
    expect(bytes(parts[0]!.body).equals(bytes(encodeTraceExportRequest(spans.slice(0, half))))).toBe(true);
    expect(bytes(parts[1]!.body).equals(bytes(encodeTraceExportRequest(spans.slice(half))))).toBe(true);
    // And read back: every span once, in order, with its resource and scope.
    const decoded = parts.flatMap((p) => decodeOtlpProtobuf(p.body));
    expect(decoded).toEqual(decodeOtlpProtobuf(encodeTraceExportRequest(spans)));
  });

  it('halves again and again down to single spans, losing none', () => {
    const spans = spansOfTwoResources(5);
    let bodies = [encodeTraceExportRequest(spans)];
    for (let round = 0; round < 6; round++) bodies = bodies.flatMap((b) => splitTraceExportRequest(b).map((p) => p.body));
    expect(bodies).toHaveLength(spans.length);
    expect(bodies.flatMap((b) => decodeOtlpProtobuf(b).map((s) => s.name))).toEqual(spans.map((s) => s.name));
  });

  it('a request of one span comes back whole, as one part', () => {
    const body = encodeTraceExportRequest(spansOfTwoResources(1).slice(0, 1));
    expect(splitTraceExportRequest(body)).toEqual([{ body, items: 1 }]);
  });

  it('throws on bytes that are not a request (the queue counts the batch as lost)', () => {
    const body = encodeTraceExportRequest(spansOfTwoResources(2));
    expect(() => splitTraceExportRequest(body.subarray(0, body.length - 7))).toThrow(/truncated/);
    expect(() => splitTraceExportRequest(new Uint8Array([0x0b, 0x01]))).toThrow(/wire type/);
  });
});

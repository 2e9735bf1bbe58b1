import { gzipSync } from 'node:zlib';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** The child span's attributes in `makeSpans`: every OTLP value kind (the decode test expects them back as set). */
export const CHILD_ATTRIBUTES = {
  'obs.observation.type': 'generation',
  'obs.observation.model.name': 'gpt-test',
  'obs.observation.metadata.a.b': 1,
  'obs.observation.metadata.flag': true,
  str: 'text',
  int: 42,
  negative: -7,
  double: 1.5,
  bool: true,
  strings: ['x', 'y'],
  numbers: [1, 2, 3],
};

/** Makes a small real trace: root (server) -> child (client, error, event, link) -> grandchild. */
export function makeSpans(): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('obs-sdk', '6.0.0');

  const root = tracer.startSpan('POST /chat', {
    kind: SpanKind.SERVER,
    attributes: {
      'obs.observation.type': 'span',
      'obs.observation.input': '{"q":"hi"}',
      'obs.observation.output': '{"a":"hello"}',
      'obs.trace.name': 'chat',
      'session.id': 'sess-1',
      'user.id': 'user-1',
    },
  });
  const rootCtx = trace.setSpan(ROOT_CONTEXT, root);
  const child = tracer.startSpan(
    'llm-call',
    {
      kind: SpanKind.CLIENT,
      attributes: CHILD_ATTRIBUTES,
      links: [{ context: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 } }],
    },
    rootCtx,
  );
  child.addEvent('token', { index: 3, text: 'he' });
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
  const grandchild = tracer.startSpan('search', { attributes: { 'obs.observation.type': 'tool' } }, trace.setSpan(ROOT_CONTEXT, child));
  grandchild.end();
  child.end();
  root.end();
  return exporter.getFinishedSpans();
}

export function toProtobuf(spans: ReadableSpan[]): Buffer {
  return Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
}

export function toJson(spans: ReadableSpan[]): Buffer {
  return Buffer.from(JsonTraceSerializer.serializeRequest(spans)!);
}

export const gzip = (b: Buffer | string): Buffer => gzipSync(b);

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** A tiny protobuf encoder, to hand-craft messages the OTel serializer does not produce. */
export const pb = {
  varint(n: bigint | number): Buffer {
    let v = BigInt.asUintN(64, BigInt(n));
    const out: number[] = [];
    do {
      let b = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) b |= 0x80;
      out.push(b);
    } while (v > 0n);
    return Buffer.from(out);
  },
  tag(field: number, wire: number): Buffer {
    return pb.varint((field << 3) | wire);
  },
  len(field: number, payload: Buffer | string): Buffer {
    const b = typeof payload === 'string' ? Buffer.from(payload) : payload;
    return Buffer.concat([pb.tag(field, 2), pb.varint(b.length), b]);
  },
  int(field: number, n: bigint | number): Buffer {
    return Buffer.concat([pb.tag(field, 0), pb.varint(n)]);
  },
  fixed64(field: number, n: bigint): Buffer {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(n);
    return Buffer.concat([pb.tag(field, 1), b]);
  },
  double(field: number, n: number): Buffer {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(n);
    return Buffer.concat([pb.tag(field, 1), b]);
  },
  kv(key: string, anyValue: Buffer): Buffer {
    return Buffer.concat([pb.len(1, key), pb.len(2, anyValue)]);
  },
};

/** Spans of two experiment items and one plain span, exported as the SDK would. */
export function experimentSpans(): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('obs-sdk', '6.0.0');
  for (const [i, id] of ['exp-1', 'exp-1', 'exp-2'].entries()) {
    tracer
      .startSpan('experiment-item-run', {
        kind: SpanKind.INTERNAL,
        attributes: {
          'obs.experiment.id': id,
          'obs.experiment.name': `run ${id}`,
          'obs.experiment.dataset.id': 'ds-1',
          'obs.experiment.item.id': `item-${i}`,
          'obs.experiment.item.version': '2026-01-01T00:00:00.000Z',
          'obs.experiment.metadata': '{"m":1}',
        },
      })
      .end();
  }
  tracer.startSpan('unrelated').end();
  return exporter.getFinishedSpans();
}

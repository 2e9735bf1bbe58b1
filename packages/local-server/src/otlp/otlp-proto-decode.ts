/**
 * Decodes an OTLP `ExportTraceServiceRequest` in protobuf encoding
 * (opentelemetry/proto/collector/trace/v1), by hand, without generated code: each message is a
 * table of its known fields (number -> wire type and how to read it), read by one loop.
 */
import { completeSpan, idOrUndefined, OtlpDecodeError, type SpanFields } from './decoded-span.js';
import { ProtoDecodeError, ProtoReader, WireType } from './proto-reader.js';
import type { AttrValue, DecodedSpan, DecodedSpanEvent, DecodedSpanLink } from '../types.js';

const { VARINT, I64, LEN, I32 } = WireType;

/** One known field of a message: the wire type it must have, and how to read it into the message's state. */
type Field<T> = readonly [wireType: number, read: (r: ProtoReader, into: T) => void];
/** A message's known fields by number; any other field is skipped. */
type Fields<T> = Readonly<Record<number, Field<T>>>;

/**
 * Decodes a protobuf `ExportTraceServiceRequest` into spans.
 *
 * @param body - the uncompressed request body
 * @param compressed - recorded on every span
 * @throws OtlpDecodeError when the body is not a valid request
 */
export function decodeOtlpProtobuf(body: Uint8Array, compressed = false): DecodedSpan[] {
  try {
    const spans: DecodedSpan[] = [];
    for (const rs of readFields(new ProtoReader(body), REQUEST, [])) {
      for (const s of readResourceSpans(rs)) spans.push(completeSpan(s, 'protobuf', compressed));
    }
    return spans;
  } catch (err) {
    if (err instanceof ProtoDecodeError) throw new OtlpDecodeError(`invalid OTLP protobuf: ${err.message}`);
    throw err;
  }
}

/** Reads fields up to the reader's end into `into`, each known one checked for its wire type. */
function readFields<T>(r: ProtoReader, fields: Fields<T>, into: T): T {
  while (r.more()) {
    const field = r.tag();
    const known = fields[field];
    if (known === undefined) r.skip(r.wireType);
    else {
      r.expect(field, r.wireType, known[0]);
      known[1](r, into);
    }
  }
  return into;
}

/** Reads the embedded message that follows in place (no reader of its own: most messages are small and many). */
function readEmbedded<T>(r: ProtoReader, fields: Fields<T>, into: T): T {
  const outer = r.enter();
  readFields(r, fields, into);
  r.exit(outer);
  return into;
}

/** Reads the `KeyValue` message that follows into `into` (a later duplicate key wins). */
function readKeyValue(r: ProtoReader, into: Record<string, AttrValue>): void {
  const kv = readEmbedded(r, KEY_VALUE, { key: '', value: null });
  into[kv.key] = kv.value;
}

/** `ExportTraceServiceRequest`: its `ResourceSpans`, read once all are found. */
const REQUEST: Fields<ProtoReader[]> = { 1: [LEN, (r, list) => list.push(r.message())] };

type ResourceSpans = { resource: Record<string, AttrValue>; scopes: ProtoReader[] };
const RESOURCE_SPANS: Fields<ResourceSpans> = {
  1: [LEN, (r, rs) => (rs.resource = readEmbedded(r, ATTRIBUTES, {}))],
  2: [LEN, (r, rs) => rs.scopes.push(r.message())],
};

function readResourceSpans(r: ProtoReader): SpanFields[] {
  const rs = readFields(r, RESOURCE_SPANS, { resource: {}, scopes: [] });
  // The resource may come after the scope spans on the wire: read it first, then the spans.
  return rs.scopes.flatMap((sr) => readScopeSpans(sr, rs.resource));
}

type ScopeSpans = { scope: SpanFields['scope']; spans: ProtoReader[] };
const SCOPE_SPANS: Fields<ScopeSpans> = {
  1: [LEN, (r, ss) => (ss.scope = readEmbedded(r, SCOPE, { name: '' }))],
  2: [LEN, (r, ss) => ss.spans.push(r.message())],
};

function readScopeSpans(r: ProtoReader, resource: Record<string, AttrValue>): SpanFields[] {
  const { scope, spans } = readFields(r, SCOPE_SPANS, { scope: { name: '' }, spans: [] });
  return spans.map((sr) => readSpan(sr, scope, resource));
}

const SCOPE: Fields<SpanFields['scope']> = {
  1: [LEN, (r, scope) => (scope.name = r.string())],
  2: [LEN, (r, scope) => setIfAny(scope, 'version', r.string())],
};

/** `Span`: 3 trace_state, 10/12/14 dropped counts and unknown fields are skipped. */
const SPAN: Fields<SpanFields> = {
  1: [LEN, (r, s) => (s.traceId = r.hex())],
  2: [LEN, (r, s) => (s.spanId = r.hex())],
  4: [LEN, (r, s) => setIfAny(s, 'parentSpanId', idOrUndefined(r.hex()))],
  5: [LEN, (r, s) => (s.name = r.string())],
  6: [VARINT, (r, s) => (s.kind = r.varint())],
  7: [I64, (r, s) => (s.startTimeUnixNano = r.fixed64())],
  8: [I64, (r, s) => (s.endTimeUnixNano = r.fixed64())],
  9: [LEN, (r, s) => readKeyValue(r, s.attributes)],
  11: [LEN, (r, s) => s.events.push(readEmbedded(r, EVENT, { name: '', timeUnixNano: 0n, attributes: {} }))],
  13: [LEN, (r, s) => s.links.push(readEmbedded(r, LINK, { traceId: '', spanId: '' }))],
  15: [LEN, (r, s) => (s.status = readEmbedded(r, STATUS, { code: 0 }))],
  16: [I32, (r) => r.fixed32()], // flags: checked, not kept
};

function readSpan(r: ProtoReader, scope: SpanFields['scope'], resource: Record<string, AttrValue>): SpanFields {
  const span = readFields(r, SPAN, {
    traceId: '',
    spanId: '',
    name: '',
    kind: 0,
    startTimeUnixNano: 0n,
    endTimeUnixNano: 0n,
    attributes: {},
    status: { code: 0 },
    events: [],
    links: [],
    scope,
    resource,
  });
  const { traceId, spanId, name } = span;
  if (traceId.length !== 32) throw new ProtoDecodeError(`span "${name}": trace_id must be 16 bytes, got ${traceId.length / 2}`);
  if (spanId.length !== 16) throw new ProtoDecodeError(`span "${name}": span_id must be 8 bytes, got ${spanId.length / 2}`);
  return span;
}

/** Sets an optional string field, or unsets it for an empty value (a later field wins, as in protobuf). */
function setIfAny<T extends object, K extends keyof T>(into: T, key: K, value: T[K] | undefined): void {
  if (value) into[key] = value;
  else delete into[key];
}

const EVENT: Fields<DecodedSpanEvent> = {
  1: [I64, (r, event) => (event.timeUnixNano = r.fixed64())],
  2: [LEN, (r, event) => (event.name = r.string())],
  3: [LEN, (r, event) => readKeyValue(r, event.attributes)],
};

const LINK: Fields<DecodedSpanLink> = {
  1: [LEN, (r, link) => (link.traceId = r.hex())],
  2: [LEN, (r, link) => (link.spanId = r.hex())],
};

const STATUS: Fields<SpanFields['status']> = {
  2: [LEN, (r, status) => setIfAny(status, 'message', r.string())],
  3: [VARINT, (r, status) => (status.code = r.varint())],
};

/** `Resource` and `KeyValueList`: field 1, repeated `KeyValue`. */
const ATTRIBUTES: Fields<Record<string, AttrValue>> = { 1: [LEN, readKeyValue] };

type Value = { value: AttrValue };
const KEY_VALUE: Fields<Value & { key: string }> = {
  1: [LEN, (r, kv) => (kv.key = r.string())],
  2: [LEN, (r, kv) => readEmbedded(r, ANY_VALUE, kv)],
};

/** `AnyValue`: one of its fields, into the holder's `value`. */
const ANY_VALUE: Fields<Value> = {
  1: [LEN, (r, v) => (v.value = r.string())],
  2: [VARINT, (r, v) => (v.value = r.varint() !== 0)],
  3: [VARINT, (r, v) => (v.value = Number(r.int64()))],
  4: [I64, (r, v) => (v.value = r.double())],
  5: [LEN, (r, v) => (v.value = readEmbedded(r, ARRAY_VALUE, []))],
  6: [LEN, (r, v) => (v.value = readEmbedded(r, ATTRIBUTES, {}))],
  7: [LEN, (r, v) => (v.value = r.hex())],
};

/** `ArrayValue`: field 1, repeated `AnyValue`. */
const ARRAY_VALUE: Fields<AttrValue[]> = {
  1: [LEN, (r, values) => values.push(readEmbedded(r, ANY_VALUE, { value: null }).value)],
};

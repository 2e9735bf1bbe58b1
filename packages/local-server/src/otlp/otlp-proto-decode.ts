/**
 * Decodes an OTLP `ExportTraceServiceRequest` in protobuf encoding
 * (opentelemetry/proto/collector/trace/v1), by hand, without generated code.
 */
import { completeSpan, idOrUndefined, OtlpDecodeError, type SpanFields } from './decoded-span.js';
import { ProtoDecodeError, ProtoReader, WireType } from './proto-reader.js';
import type { AttrValue, DecodedSpan, DecodedSpanEvent, DecodedSpanLink } from '../types.js';

const { VARINT, I64, LEN, I32 } = WireType;

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
    const r = new ProtoReader(body);
    while (r.more()) {
      const field = r.tag();
      const wt = r.wireType;
      if (field === 1) {
        r.expect(field, wt, LEN);
        for (const s of readResourceSpans(r.message())) spans.push(completeSpan(s, 'protobuf', compressed));
      } else r.skip(wt);
    }
    return spans;
  } catch (err) {
    if (err instanceof ProtoDecodeError) throw new OtlpDecodeError(`invalid OTLP protobuf: ${err.message}`);
    throw err;
  }
}

function readResourceSpans(r: ProtoReader): SpanFields[] {
  let resource: Record<string, AttrValue> = {};
  const scopeReaders: ProtoReader[] = [];
  while (r.more()) {
    const field = r.tag();
    const wt = r.wireType;
    if (field === 1) {
      r.expect(field, wt, LEN);
      resource = readResource(r.message());
    } else if (field === 2) {
      r.expect(field, wt, LEN);
      scopeReaders.push(r.message());
    } else r.skip(wt);
  }
  // The resource may come after the scope spans on the wire: read it first, then the spans.
  return scopeReaders.flatMap((sr) => readScopeSpans(sr, resource));
}

function readResource(r: ProtoReader): Record<string, AttrValue> {
  const attrs: Record<string, AttrValue> = {};
  while (r.more()) {
    const field = r.tag();
    const wt = r.wireType;
    if (field === 1) {
      r.expect(field, wt, LEN);
      readKeyValue(r, attrs);
    } else r.skip(wt);
  }
  return attrs;
}

function readScopeSpans(r: ProtoReader, resource: Record<string, AttrValue>): SpanFields[] {
  let scope: SpanFields['scope'] = { name: '' };
  const spanReaders: ProtoReader[] = [];
  while (r.more()) {
    const field = r.tag();
    const wt = r.wireType;
    if (field === 1) {
      r.expect(field, wt, LEN);
      scope = readScope(r.message());
    } else if (field === 2) {
      r.expect(field, wt, LEN);
      spanReaders.push(r.message());
    } else r.skip(wt);
  }
  return spanReaders.map((sr) => readSpan(sr, scope, resource));
}

function readScope(r: ProtoReader): SpanFields['scope'] {
  const scope: SpanFields['scope'] = { name: '' };
  while (r.more()) {
    const field = r.tag();
    const wt = r.wireType;
    if (field === 1) {
      r.expect(field, wt, LEN);
      scope.name = r.string();
    } else if (field === 2) {
      r.expect(field, wt, LEN);
      const version = r.string();
      if (version) scope.version = version;
    } else r.skip(wt);
  }
  return scope;
}

function readSpan(r: ProtoReader, scope: SpanFields['scope'], resource: Record<string, AttrValue>): SpanFields {
  let traceId = '';
  let spanId = '';
  let parentSpanId: string | undefined;
  let name = '';
  let kind = 0;
  let start = 0n;
  let end = 0n;
  const attrs: Record<string, AttrValue> = {};
  const events: DecodedSpanEvent[] = [];
  const links: DecodedSpanLink[] = [];
  let status: SpanFields['status'] = { code: 0 };
  while (r.more()) {
    const field = r.tag();
    const wt = r.wireType;
    switch (field) {
      case 1:
        r.expect(field, wt, LEN);
        traceId = r.hex();
        break;
      case 2:
        r.expect(field, wt, LEN);
        spanId = r.hex();
        break;
      case 4:
        r.expect(field, wt, LEN);
        parentSpanId = idOrUndefined(r.hex());
        break;
      case 5:
        r.expect(field, wt, LEN);
        name = r.string();
        break;
      case 6:
        r.expect(field, wt, VARINT);
        kind = r.varint();
        break;
      case 7:
        r.expect(field, wt, I64);
        start = r.fixed64();
        break;
      case 8:
        r.expect(field, wt, I64);
        end = r.fixed64();
        break;
      case 9:
        r.expect(field, wt, LEN);
        readKeyValue(r, attrs);
        break;
      case 11:
        r.expect(field, wt, LEN);
        events.push(readEvent(r.message()));
        break;
      case 13:
        r.expect(field, wt, LEN);
        links.push(readLink(r.message()));
        break;
      case 15:
        r.expect(field, wt, LEN);
        status = readStatus(r.message());
        break;
      case 16:
        r.expect(field, wt, I32);
        r.fixed32();
        break;
      default:
        r.skip(wt); // 3 trace_state, 10/12/14 dropped counts, unknown fields
    }
  }
  if (traceId.length !== 32) throw new ProtoDecodeError(`span "${name}": trace_id must be 16 bytes, got ${traceId.length / 2}`);
  if (spanId.length !== 16) throw new ProtoDecodeError(`span "${name}": span_id must be 8 bytes, got ${spanId.length / 2}`);
  const span: SpanFields = {
    traceId,
    spanId,
    name,
    kind,
    startTimeUnixNano: start,
    endTimeUnixNano: end,
    attributes: attrs,
    status,
    events,
    links,
    scope,
    resource,
  };
  if (parentSpanId) span.parentSpanId = parentSpanId;
  return span;
}

function readEvent(r: ProtoReader): DecodedSpanEvent {
  const event: DecodedSpanEvent = { name: '', timeUnixNano: 0n, attributes: {} };
  while (r.more()) {
    const field = r.tag();
    const wt = r.wireType;
    if (field === 1) {
      r.expect(field, wt, I64);
      event.timeUnixNano = r.fixed64();
    } else if (field === 2) {
      r.expect(field, wt, LEN);
      event.name = r.string();
    } else if (field === 3) {
      r.expect(field, wt, LEN);
      readKeyValue(r, event.attributes);
    } else r.skip(wt);
  }
  return event;
}

function readLink(r: ProtoReader): DecodedSpanLink {
  const link: DecodedSpanLink = { traceId: '', spanId: '' };
  while (r.more()) {
    const field = r.tag();
    const wt = r.wireType;
    if (field === 1) {
      r.expect(field, wt, LEN);
      link.traceId = r.hex();
    } else if (field === 2) {
      r.expect(field, wt, LEN);
      link.spanId = r.hex();
    } else r.skip(wt);
  }
  return link;
}

function readStatus(r: ProtoReader): SpanFields['status'] {
  const status: SpanFields['status'] = { code: 0 };
  while (r.more()) {
    const field = r.tag();
    const wt = r.wireType;
    if (field === 2) {
      r.expect(field, wt, LEN);
      const message = r.string();
      if (message) status.message = message;
    } else if (field === 3) {
      r.expect(field, wt, VARINT);
      status.code = r.varint();
    } else r.skip(wt);
  }
  return status;
}

/** Reads the `KeyValue` message that follows into `into` (a later duplicate key wins). */
function readKeyValue(r: ProtoReader, into: Record<string, AttrValue>): void {
  const outer = r.enter();
  let key = '';
  let value: AttrValue = null;
  while (r.more()) {
    const field = r.tag();
    const wt = r.wireType;
    if (field === 1) {
      r.expect(field, wt, LEN);
      key = r.string();
    } else if (field === 2) {
      r.expect(field, wt, LEN);
      const anyEnd = r.enter();
      value = readAnyValue(r);
      r.exit(anyEnd);
    } else r.skip(wt);
  }
  r.exit(outer);
  into[key] = value;
}

/** Reads an `AnyValue` up to the reader's end. */
function readAnyValue(r: ProtoReader): AttrValue {
  let value: AttrValue = null;
  while (r.more()) {
    const field = r.tag();
    const wt = r.wireType;
    switch (field) {
      case 1:
        r.expect(field, wt, LEN);
        value = r.string();
        break;
      case 2:
        r.expect(field, wt, VARINT);
        value = r.varint() !== 0;
        break;
      case 3:
        r.expect(field, wt, VARINT);
        value = Number(r.int64());
        break;
      case 4:
        r.expect(field, wt, I64);
        value = r.double();
        break;
      case 5:
        r.expect(field, wt, LEN);
        value = readValues(r.message());
        break;
      case 6:
        r.expect(field, wt, LEN);
        value = readKeyValueList(r.message());
        break;
      case 7:
        r.expect(field, wt, LEN);
        value = r.hex();
        break;
      default:
        r.skip(wt);
    }
  }
  return value;
}

/** `ArrayValue`: field 1, repeated `AnyValue`. */
function readValues(r: ProtoReader): AttrValue[] {
  const values: AttrValue[] = [];
  while (r.more()) {
    const field = r.tag();
    const wt = r.wireType;
    if (field === 1) {
      r.expect(field, wt, LEN);
      values.push(readAnyValue(r.message()));
    } else r.skip(wt);
  }
  return values;
}

/** `KeyValueList`: field 1, repeated `KeyValue`. */
function readKeyValueList(r: ProtoReader): Record<string, AttrValue> {
  const pairs: Record<string, AttrValue> = {};
  while (r.more()) {
    const field = r.tag();
    const wt = r.wireType;
    if (field === 1) {
      r.expect(field, wt, LEN);
      readKeyValue(r, pairs);
    } else r.skip(wt);
  }
  return pairs;
}

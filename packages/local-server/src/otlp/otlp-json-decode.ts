/**
 * Decodes an OTLP/JSON `ExportTraceServiceRequest`: camelCase field names, ids as hex
 * (base64 is accepted too), 64-bit integers as strings or numbers.
 */
import { completeSpan, idOrUndefined, OtlpDecodeError, toHex, toRecord, type SpanFields } from './decoded-span.js';
import type { AttrValue, DecodedSpan, DecodedSpanEvent, DecodedSpanLink } from '../types.js';

type Json = Record<string, unknown>;

const SPAN_KINDS: Record<string, number> = {
  SPAN_KIND_UNSPECIFIED: 0,
  SPAN_KIND_INTERNAL: 1,
  SPAN_KIND_SERVER: 2,
  SPAN_KIND_CLIENT: 3,
  SPAN_KIND_PRODUCER: 4,
  SPAN_KIND_CONSUMER: 5,
};
const STATUS_CODES: Record<string, number> = { STATUS_CODE_UNSET: 0, STATUS_CODE_OK: 1, STATUS_CODE_ERROR: 2 };

/**
 * Decodes an OTLP/JSON `ExportTraceServiceRequest` (already parsed, or as text/bytes).
 *
 * @param body - the parsed JSON, or the uncompressed body
 * @param compressed - recorded on every span
 * @throws OtlpDecodeError when the body is not a valid request
 */
export function decodeOtlpJson(body: unknown, compressed = false): DecodedSpan[] {
  let doc = body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
    try {
      doc = JSON.parse(text);
    } catch (err) {
      throw new OtlpDecodeError(`invalid JSON: ${(err as Error).message}`);
    }
  }
  const root = obj(doc, 'request');
  const spans: DecodedSpan[] = [];
  for (const [i, rs] of arr(root['resourceSpans'], 'resourceSpans').entries()) {
    const resourceSpans = obj(rs, `resourceSpans[${i}]`);
    const resourceObj = resourceSpans['resource'] == null ? {} : obj(resourceSpans['resource'], 'resource');
    const resource = attributes(resourceObj['attributes'], 'resource.attributes');
    const scopeList = resourceSpans['scopeSpans'] ?? resourceSpans['instrumentationLibrarySpans'];
    for (const [j, ss] of arr(scopeList, 'scopeSpans').entries()) {
      const scopeSpans = obj(ss, `scopeSpans[${j}]`);
      const scopeObj = scopeSpans['scope'] ?? scopeSpans['instrumentationLibrary'];
      const scope: SpanFields['scope'] = { name: '' };
      if (scopeObj != null) {
        const s = obj(scopeObj, 'scope');
        scope.name = str(s['name'], 'scope.name');
        const version = str(s['version'], 'scope.version');
        if (version) scope.version = version;
      }
      for (const [k, sp] of arr(scopeSpans['spans'], 'spans').entries()) {
        spans.push(completeSpan(readSpan(obj(sp, `spans[${k}]`), scope, resource), 'json', compressed));
      }
    }
  }
  return spans;
}

function readSpan(s: Json, scope: SpanFields['scope'], resource: Record<string, AttrValue>): SpanFields {
  const name = str(s['name'], 'span.name');
  const traceId = id(s['traceId'], 16, `span "${name}" traceId`);
  const spanId = id(s['spanId'], 8, `span "${name}" spanId`);
  const parent =
    s['parentSpanId'] == null || s['parentSpanId'] === '' ? undefined : idOrUndefined(id(s['parentSpanId'], 8, 'parentSpanId'));
  const statusObj = s['status'] == null ? {} : obj(s['status'], 'status');
  const status: SpanFields['status'] = { code: enumValue(statusObj['code'], STATUS_CODES, 'status.code') };
  const message = str(statusObj['message'], 'status.message');
  if (message) status.message = message;
  const events: DecodedSpanEvent[] = arr(s['events'], 'events').map((e, i) => {
    const ev = obj(e, `events[${i}]`);
    return {
      name: str(ev['name'], 'event.name'),
      timeUnixNano: nanos(ev['timeUnixNano'], 'event.timeUnixNano'),
      attributes: attributes(ev['attributes'], 'event.attributes'),
    };
  });
  const links: DecodedSpanLink[] = arr(s['links'], 'links').map((l, i) => {
    const link = obj(l, `links[${i}]`);
    return { traceId: id(link['traceId'], 16, 'link.traceId'), spanId: id(link['spanId'], 8, 'link.spanId') };
  });
  const span: SpanFields = {
    traceId,
    spanId,
    name,
    kind: enumValue(s['kind'], SPAN_KINDS, 'kind'),
    startTimeUnixNano: nanos(s['startTimeUnixNano'], 'startTimeUnixNano'),
    endTimeUnixNano: nanos(s['endTimeUnixNano'], 'endTimeUnixNano'),
    attributes: attributes(s['attributes'], 'attributes'),
    status,
    events,
    links,
    scope,
    resource,
  };
  if (parent) span.parentSpanId = parent;
  return span;
}

function attributes(v: unknown, what: string): Record<string, AttrValue> {
  return toRecord(keyValues(v, what));
}

function keyValues(v: unknown, what: string): Array<[string, AttrValue]> {
  return arr(v, what).map((kv, i) => {
    const o = obj(kv, `${what}[${i}]`);
    const key = str(o['key'], `${what}[${i}].key`);
    return [key, anyValue(o['value'], `${what}.${key}`)];
  });
}

function anyValue(v: unknown, what: string): AttrValue {
  if (v == null) return null;
  const o = obj(v, what);
  if ('stringValue' in o) return str(o['stringValue'], what);
  if ('boolValue' in o) {
    if (typeof o['boolValue'] !== 'boolean') throw new OtlpDecodeError(`${what}: boolValue must be a boolean`);
    return o['boolValue'];
  }
  if ('intValue' in o) return Number(integer(o['intValue'], what));
  if ('doubleValue' in o) {
    const d = o['doubleValue'];
    if (typeof d === 'number') return d;
    if (typeof d === 'string' && (d === 'NaN' || d === 'Infinity' || d === '-Infinity' || Number.isFinite(Number(d)))) return Number(d);
    throw new OtlpDecodeError(`${what}: doubleValue must be a number`);
  }
  if ('arrayValue' in o) {
    const a = o['arrayValue'] == null ? {} : obj(o['arrayValue'], what);
    return arr(a['values'], what).map((x, i) => anyValue(x, `${what}[${i}]`));
  }
  if ('kvlistValue' in o) {
    const l = o['kvlistValue'] == null ? {} : obj(o['kvlistValue'], what);
    return toRecord(keyValues(l['values'], what));
  }
  if ('bytesValue' in o) {
    // OTLP/JSON keeps the protobuf JSON mapping for bytes values: base64.
    return toHex(Buffer.from(str(o['bytesValue'], what), 'base64'));
  }
  return null;
}

function id(v: unknown, bytes: number, what: string): string {
  const s = str(v, what);
  if (s.length === bytes * 2 && /^[0-9a-fA-F]+$/.test(s)) return s.toLowerCase();
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(s)) {
    const b = Buffer.from(s, 'base64');
    if (b.length === bytes) return b.toString('hex');
  }
  throw new OtlpDecodeError(`${what}: expected ${bytes * 2} hex characters, got ${JSON.stringify(v)}`);
}

function nanos(v: unknown, what: string): bigint {
  if (v == null) return 0n;
  return integer(v, what);
}

function integer(v: unknown, what: string): bigint {
  if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v));
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return BigInt(v.trim());
  if (typeof v === 'bigint') return v;
  throw new OtlpDecodeError(`${what}: expected an integer (number or decimal string), got ${JSON.stringify(v)}`);
}

function enumValue(v: unknown, names: Record<string, number>, what: string): number {
  if (v == null) return 0;
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && v in names) return names[v]!;
  throw new OtlpDecodeError(`${what}: unexpected value ${JSON.stringify(v)}`);
}

function obj(v: unknown, what: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new OtlpDecodeError(`${what}: expected an object`);
  return v as Json;
}

function arr(v: unknown, what: string): unknown[] {
  if (v == null) return [];
  if (!Array.isArray(v)) throw new OtlpDecodeError(`${what}: expected an array`);
  return v;
}

function str(v: unknown, what: string): string {
  if (v == null) return '';
  if (typeof v !== 'string') throw new OtlpDecodeError(`${what}: expected a string`);
  return v;
}

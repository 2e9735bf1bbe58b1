/**
 * A hand-written encoder of OTLP `ExportTraceServiceRequest` (opentelemetry/proto
 * collector/trace/v1) in protobuf, straight from `ReadableSpan`s: the message layout, over the
 * wire primitives of `protobuf/wire.ts`.
 *
 * Its output is byte for byte what `ProtobufTraceSerializer.serializeRequest` of
 * `@opentelemetry/otlp-transformer` 0.2xx produces (same grouping by resource then scope, same
 * fields, including the zero dropped counts and the span flags), at a fraction of the cost:
 * two passes (sizes, then one exact buffer), attribute keys encoded once per key with their
 * `KeyValue` tags and copied afterwards, ids written from hex in place, and the `Resource` and
 * `InstrumentationScope` messages encoded once per object and reused by every later batch.
 */
import type { Attributes, Link, SpanContext } from '@opentelemetry/api';
import type { ReadableSpan, TimedEvent } from '../../tracing/sdk-types.js';
import {
  allocate,
  beginSizing,
  endWrite,
  FIXED32,
  FIXED64,
  fieldSize,
  fill,
  finish,
  isInt64,
  LEN,
  newBuffer,
  nextSize,
  push,
  pushChunk,
  slot,
  tag,
  textEncoder,
  utf8Length,
  VARINT,
  vs,
  vs64,
  writeByte,
  writeBytes,
  writeDouble,
  writeFixed32,
  writeHex,
  writeEpochMs,
  writeHrTime,
  writeInto,
  writeNextChunk,
  writeStr,
  writeVarint,
  writeVarint64,
} from './protobuf/wire.js';
import { hasEpochMs } from '../../tracing/span-slots.js';

type Resource = ReadableSpan['resource'];
type Scope = ReadableSpan['instrumentationScope'] & { attributes?: Attributes; droppedAttributesCount?: number };

// Field tags, by message (opentelemetry/proto common/v1, resource/v1, trace/v1).

const REQUEST_RESOURCE_SPANS = tag(1, LEN);
/** Field 1 of both `ResourceSpans` (resource) and `ScopeSpans` (scope). */
const GROUP_HEAD = tag(1, LEN);
const RESOURCE_SPANS_SCOPE_SPANS = tag(2, LEN);
const RESOURCE_SPANS_SCHEMA_URL = tag(3, LEN);
const SCOPE_SPANS_SPANS = tag(2, LEN);
const SCOPE_SPANS_SCHEMA_URL = tag(3, LEN);

const RESOURCE_ATTRIBUTES = tag(1, LEN);
const RESOURCE_DROPPED_ATTRIBUTES = tag(2, VARINT);
const SCOPE_NAME = tag(1, LEN);
const SCOPE_VERSION = tag(2, LEN);
const SCOPE_ATTRIBUTES = tag(3, LEN);
const SCOPE_DROPPED_ATTRIBUTES = tag(4, VARINT);

const SPAN_TRACE_ID = tag(1, LEN);
const SPAN_SPAN_ID = tag(2, LEN);
const SPAN_TRACE_STATE = tag(3, LEN);
const SPAN_PARENT_SPAN_ID = tag(4, LEN);
const SPAN_NAME = tag(5, LEN);
const SPAN_KIND = tag(6, VARINT);
const SPAN_START_TIME = tag(7, FIXED64);
const SPAN_END_TIME = tag(8, FIXED64);
const SPAN_ATTRIBUTES = tag(9, LEN);
const SPAN_DROPPED_ATTRIBUTES = tag(10, VARINT);
const SPAN_EVENTS = tag(11, LEN);
const SPAN_DROPPED_EVENTS = tag(12, VARINT);
const SPAN_LINKS = tag(13, LEN);
const SPAN_DROPPED_LINKS = tag(14, VARINT);
const SPAN_STATUS = tag(15, LEN);
/** `Span.flags` is field 16 (fixed32): its tag takes two bytes. */
const SPAN_FLAGS_TAG = [0x85, 0x01] as const;

const EVENT_TIME = tag(1, FIXED64);
const EVENT_NAME = tag(2, LEN);
const EVENT_ATTRIBUTES = tag(3, LEN);
const EVENT_DROPPED_ATTRIBUTES = tag(4, VARINT);

// Link fields 1-3 (trace id, span id, trace state) are numbered as the span's.
const LINK_ATTRIBUTES = tag(4, LEN);
const LINK_DROPPED_ATTRIBUTES = tag(5, VARINT);
const LINK_FLAGS = tag(6, FIXED32);

const STATUS_MESSAGE = tag(2, LEN);
const STATUS_CODE = tag(3, VARINT);

const KEY_VALUE_KEY = tag(1, LEN);
const KEY_VALUE_VALUE = tag(2, LEN);
const KEY_VALUE_LIST_VALUES = tag(1, LEN);
const ARRAY_VALUE_VALUES = tag(1, LEN);

const ANY_STRING = tag(1, LEN);
const ANY_BOOL = tag(2, VARINT);
const ANY_INT = tag(3, VARINT);
const ANY_DOUBLE = tag(4, FIXED64);
const ANY_ARRAY = tag(5, LEN);
const ANY_KVLIST = tag(6, LEN);
const ANY_BYTES = tag(7, LEN);

/** Bytes of a span's start and end times: two one-byte tags and two fixed64. */
const SPAN_TIMES_SIZE = 18;
/** Bytes of a link's flags field: tag and fixed32. */
const LINK_FLAGS_SIZE = 5;
/** Bytes of a span's flags field: two-byte tag and fixed32. */
const SPAN_FLAGS_SIZE = 6;
/** Bytes of an event's time field: tag and fixed64. */
const EVENT_TIME_SIZE = 9;

// Attribute maps are walked with `Object.keys`, not `for ... in` + a module-level
// `hasOwnProperty` alias: a bundler turns that `const` into a `var`, which V8's optimizing
// compiler cannot fold, so the bundle called the builtin for every key of every span
// (bench/RESULTS.md, the bundle against tsc's build).

// ---------------------------------------------------------------------------------------------
// Attributes.

/** Most attribute keys whose encoded form is kept; past it the cache starts over. */
const KEY_CACHE_MAX = 4096;

/**
 * Encoded start of a `KeyValue` per attribute key: the key field (tag, length, UTF-8) and the
 * value's tag. Keys repeat on every span, so each is encoded once and copied afterwards.
 */
const keyCache = new Map<string, Uint8Array>();

function keyPrefix(key: string): Uint8Array {
  let bytes = keyCache.get(key);
  if (bytes !== undefined) return bytes;
  const utf8 = textEncoder.encode(key);
  const n = utf8.length;
  bytes = new Uint8Array(2 + vs(n) + n);
  let p = 0;
  bytes[p++] = KEY_VALUE_KEY;
  for (let v = n; ; ) {
    if (v < 0x80) {
      bytes[p++] = v;
      break;
    }
    bytes[p++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  bytes.set(utf8, p);
  bytes[p + n] = KEY_VALUE_VALUE;
  if (keyCache.size >= KEY_CACHE_MAX) keyCache.clear();
  keyCache.set(key, bytes);
  return bytes;
}

/** Repeated `KeyValue` fields of an attribute map (every such field has a one-byte tag). */
function sizeKeyValues(attrs: Attributes): number {
  let total = 0;
  for (const key of Object.keys(attrs)) {
    const kvSlot = slot();
    const prefix = keyPrefix(key);
    pushChunk(prefix);
    const anySlot = slot();
    const al = sizeAny(attrs[key]);
    fill(anySlot, al);
    const kv = prefix.length + vs(al) + al;
    fill(kvSlot, kv);
    total += fieldSize(kv);
  }
  return total;
}

/** Length of an `AnyValue` message (what `writeAny` writes). */
function sizeAny(v: unknown): number {
  switch (typeof v) {
    case 'string': {
      const bl = utf8Length(v);
      push(bl);
      return fieldSize(bl);
    }
    case 'boolean':
      return 2;
    case 'number':
      return isInt64(v) ? 1 + vs64(v) : 9;
    case 'object': {
      if (v === null) return 0;
      if (v instanceof Uint8Array) return fieldSize(v.length);
      const s = slot();
      let len: number;
      if (Array.isArray(v)) {
        len = 0;
        for (let i = 0; i < v.length; i++) {
          const itemSlot = slot();
          const il = sizeAny(v[i]);
          fill(itemSlot, il);
          len += fieldSize(il);
        }
      } else len = sizeKeyValues(v as Attributes);
      fill(s, len);
      return fieldSize(len);
    }
    default:
      return 0; // undefined, functions, symbols, bigints: an empty AnyValue, as the official one
  }
}

function writeKeyValues(attrs: Attributes, fieldTag: number): void {
  for (const key of Object.keys(attrs)) {
    writeByte(fieldTag);
    writeVarint(nextSize());
    writeNextChunk();
    writeVarint(nextSize());
    writeAny(attrs[key]);
  }
}

function writeAny(v: unknown): void {
  switch (typeof v) {
    case 'string':
      writeByte(ANY_STRING);
      writeStr(v, nextSize());
      return;
    case 'boolean':
      writeByte(ANY_BOOL);
      writeByte(v ? 1 : 0);
      return;
    case 'number':
      if (isInt64(v)) {
        writeByte(ANY_INT);
        writeVarint64(v);
      } else {
        writeByte(ANY_DOUBLE);
        writeDouble(v);
      }
      return;
    case 'object': {
      if (v === null) return;
      if (v instanceof Uint8Array) {
        writeByte(ANY_BYTES);
        writeVarint(v.length);
        writeBytes(v);
        return;
      }
      if (Array.isArray(v)) {
        writeByte(ANY_ARRAY);
        writeVarint(nextSize());
        for (let i = 0; i < v.length; i++) {
          writeByte(ARRAY_VALUE_VALUES);
          writeVarint(nextSize());
          writeAny(v[i]);
        }
        return;
      }
      writeByte(ANY_KVLIST);
      writeVarint(nextSize());
      writeKeyValues(v as Attributes, KEY_VALUE_LIST_VALUES);
      return;
    }
    default:
  }
}

// ---------------------------------------------------------------------------------------------
// Spans, events, links.

function sizeStringField(s: string): number {
  const bl = utf8Length(s);
  push(bl);
  return fieldSize(bl);
}

function sizeEvent(ev: TimedEvent): number {
  const s = slot();
  let len = EVENT_TIME_SIZE + sizeStringField(ev.name);
  if (ev.attributes) len += sizeKeyValues(ev.attributes);
  len += 1 + vs(ev.droppedAttributesCount || 0);
  fill(s, len);
  return fieldSize(len);
}

/** Fields 1-3 of both `Span` and `Span.Link`: trace id, span id, trace state (what `writeIds` writes). */
function sizeIds(ctx: SpanContext): number {
  const len = fieldSize(ctx.traceId.length >>> 1) + fieldSize(ctx.spanId.length >>> 1);
  const ts = ctx.traceState?.serialize();
  return ts ? len + sizeStringField(ts) : len;
}

function sizeLink(link: Link): number {
  const s = slot();
  let len = sizeIds(link.context);
  if (link.attributes) len += sizeKeyValues(link.attributes);
  len += 1 + vs(link.droppedAttributesCount || 0) + LINK_FLAGS_SIZE;
  fill(s, len);
  return fieldSize(len);
}

/** A `Span` field of `ScopeSpans`, tag and length included. */
function sizeSpan(span: ReadableSpan): number {
  const s = slot();
  let len = sizeIds(span.spanContext());
  const parent = span.parentSpanContext?.spanId;
  if (parent) len += fieldSize(parent.length >>> 1);
  len += sizeStringField(span.name);
  const kind = span.kind == null ? 0 : span.kind + 1;
  if (kind !== 0) len += 1 + vs(kind);
  len += SPAN_TIMES_SIZE;
  if (span.attributes) len += sizeKeyValues(span.attributes);
  len += 1 + vs(span.droppedAttributesCount);
  const events = span.events;
  for (let i = 0; i < events.length; i++) len += sizeEvent(events[i]!);
  len += 1 + vs(span.droppedEventsCount);
  const links = span.links;
  for (let i = 0; i < links.length; i++) len += sizeLink(links[i]!);
  len += 1 + vs(span.droppedLinksCount);
  const status = span.status;
  const stSlot = slot();
  const st = (status.message ? sizeStringField(status.message) : 0) + 1 + vs(status.code);
  fill(stSlot, st);
  len += fieldSize(st);
  len += SPAN_FLAGS_SIZE;
  fill(s, len);
  return fieldSize(len);
}

function writeEvent(ev: TimedEvent): void {
  writeByte(SPAN_EVENTS);
  writeVarint(nextSize());
  writeByte(EVENT_TIME);
  writeHrTime(ev.time);
  writeByte(EVENT_NAME);
  writeStr(ev.name, nextSize());
  if (ev.attributes) writeKeyValues(ev.attributes, EVENT_ATTRIBUTES);
  writeByte(EVENT_DROPPED_ATTRIBUTES);
  writeVarint(ev.droppedAttributesCount || 0);
}

/** Fields 1-3 of both `Span` and `Span.Link`: trace id, span id, trace state. */
function writeIds(ctx: SpanContext): void {
  writeByte(SPAN_TRACE_ID);
  writeHex(ctx.traceId);
  writeByte(SPAN_SPAN_ID);
  writeHex(ctx.spanId);
  const ts = ctx.traceState?.serialize();
  if (ts) {
    writeByte(SPAN_TRACE_STATE);
    writeStr(ts, nextSize());
  }
}

function writeLink(link: Link): void {
  writeByte(SPAN_LINKS);
  writeVarint(nextSize());
  const ctx = link.context;
  writeIds(ctx);
  if (link.attributes) writeKeyValues(link.attributes, LINK_ATTRIBUTES);
  writeByte(LINK_DROPPED_ATTRIBUTES);
  writeVarint(link.droppedAttributesCount || 0);
  writeByte(LINK_FLAGS);
  writeFixed32(spanFlags(ctx.traceFlags, ctx.isRemote));
}

/** W3C trace flags in the low byte, then HAS_IS_REMOTE (0x100) and IS_REMOTE (0x200). */
function spanFlags(traceFlags: number, isRemote: boolean | undefined): number {
  return (traceFlags & 0xff) | 0x100 | (isRemote ? 0x200 : 0);
}

function writeSpan(span: ReadableSpan): void {
  writeByte(SCOPE_SPANS_SPANS);
  writeVarint(nextSize());
  const ctx = span.spanContext();
  writeIds(ctx);
  const parent = span.parentSpanContext;
  if (parent?.spanId) {
    writeByte(SPAN_PARENT_SPAN_ID);
    writeHex(parent.spanId);
  }
  writeByte(SPAN_NAME);
  writeStr(span.name, nextSize());
  const kind = span.kind == null ? 0 : span.kind + 1;
  if (kind !== 0) {
    writeByte(SPAN_KIND);
    writeVarint(kind);
  }
  writeByte(SPAN_START_TIME);
  // A span that keeps epoch-ms numbers (obs's own): read them, not the HrTime arrays built on demand.
  if (hasEpochMs(span)) {
    writeEpochMs(span.startMs);
    writeByte(SPAN_END_TIME);
    writeEpochMs(span.endMs);
  } else {
    writeHrTime(span.startTime);
    writeByte(SPAN_END_TIME);
    writeHrTime(span.endTime);
  }
  if (span.attributes) writeKeyValues(span.attributes, SPAN_ATTRIBUTES);
  writeByte(SPAN_DROPPED_ATTRIBUTES);
  writeVarint(span.droppedAttributesCount);
  const events = span.events;
  for (let i = 0; i < events.length; i++) writeEvent(events[i]!);
  writeByte(SPAN_DROPPED_EVENTS);
  writeVarint(span.droppedEventsCount);
  const links = span.links;
  for (let i = 0; i < links.length; i++) writeLink(links[i]!);
  writeByte(SPAN_DROPPED_LINKS);
  writeVarint(span.droppedLinksCount);
  const status = span.status;
  writeByte(SPAN_STATUS);
  writeVarint(nextSize());
  if (status.message) {
    writeByte(STATUS_MESSAGE);
    writeStr(status.message, nextSize());
  }
  writeByte(STATUS_CODE);
  writeVarint(status.code);
  writeByte(SPAN_FLAGS_TAG[0]);
  writeByte(SPAN_FLAGS_TAG[1]);
  writeFixed32(spanFlags(ctx.traceFlags, parent?.isRemote));
}

// ---------------------------------------------------------------------------------------------
// Resource and scope messages, encoded once per object.

const resourceCache = new WeakMap<object, Uint8Array>();
const scopeCache = new WeakMap<object, Uint8Array>();

/** Runs a size pass then a write pass over one message and returns its bytes. */
function encodeMessage(size: () => number, write: () => void): Uint8Array {
  beginSizing();
  const total = size();
  allocate(total);
  write();
  return finish(total);
}

/** `Resource` message: attributes, then dropped_attributes_count 0 (written, as the official one does). */
function resourceBytes(resource: Resource): Uint8Array {
  let bytes = resourceCache.get(resource);
  if (bytes) return bytes;
  const attrs = resource.attributes;
  bytes = encodeMessage(
    () => (attrs ? sizeKeyValues(attrs) : 0) + 2,
    () => {
      if (attrs) writeKeyValues(attrs, RESOURCE_ATTRIBUTES);
      writeByte(RESOURCE_DROPPED_ATTRIBUTES);
      writeByte(0);
    },
  );
  // Attributes still settling (async detectors) may change: cache only settled ones.
  if (!resource.asyncAttributesPending) resourceCache.set(resource, bytes);
  return bytes;
}

/** `InstrumentationScope` message: name, version, attributes, dropped_attributes_count. */
function scopeBytes(scope: Scope): Uint8Array {
  let bytes = scopeCache.get(scope);
  if (bytes) return bytes;
  bytes = encodeMessage(
    () => {
      let len = sizeStringField(scope.name);
      if (scope.version) len += sizeStringField(scope.version);
      if (scope.attributes) len += sizeKeyValues(scope.attributes);
      if (scope.droppedAttributesCount) len += 1 + vs(scope.droppedAttributesCount);
      return len;
    },
    () => {
      writeByte(SCOPE_NAME);
      writeStr(scope.name, nextSize());
      if (scope.version) {
        writeByte(SCOPE_VERSION);
        writeStr(scope.version, nextSize());
      }
      if (scope.attributes) writeKeyValues(scope.attributes, SCOPE_ATTRIBUTES);
      if (scope.droppedAttributesCount) {
        writeByte(SCOPE_DROPPED_ATTRIBUTES);
        writeVarint(scope.droppedAttributesCount);
      }
    },
  );
  scopeCache.set(scope, bytes);
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// The request.

/** Capacity of a scope's first byte run; runs double as they fill. */
const RUN_START_BYTES = 16 * 1024;

/** The spans of one resource and scope, encoded back to back as `ScopeSpans.spans` fields. */
interface ScopeRun {
  scope: Scope;
  bytes: Uint8Array;
  /** Bytes of `bytes` in use. */
  used: number;
  /** Length of the `ScopeSpans` message (set by `finish`). */
  len: number;
  head: Uint8Array;
}

interface ResourceRun {
  resource: Resource;
  scopes: ScopeRun[];
  byScope: Map<object, ScopeRun>;
  /** Length of the `ResourceSpans` message (set by `finish`). */
  len: number;
  head: Uint8Array;
}

/**
 * An OTLP/protobuf `ExportTraceServiceRequest` built span by span: `add` encodes a span at once
 * into a byte run of its resource and scope (so no span object has to wait for its batch, and its
 * fields are read while still in the CPU's caches), `finish` frames the runs into the request.
 * Resources and scopes keep the order of their first span and spans their order within a scope:
 * the bytes are those `encodeTraceExportRequest` (and the official serializer) gives for the
 * same spans.
 */
export class EncodedSpanBatch {
  /** Spans added. */
  count = 0;
  private readonly resources: ResourceRun[] = [];
  private readonly byResource = new Map<object, ResourceRun>();
  private lastResource: unknown;
  private lastScope: unknown;
  private lastRun: ScopeRun | undefined;

  /**
   * Encodes one span into the batch.
   *
   * @throws Error on an internal inconsistency (never expected); the span is then not in the batch
   */
  add(span: ReadableSpan): void {
    const run = this.runOf(span);
    beginSizing();
    const n = sizeSpan(span);
    const end = run.used + n;
    if (end > run.bytes.length) run.bytes = grown(run.bytes, run.used, end);
    writeInto(run.bytes, run.used);
    writeSpan(span);
    endWrite(end);
    run.used = end;
    this.count++;
  }

  /**
   * The request: the runs, each behind its `ResourceSpans` and `ScopeSpans` heads.
   *
   * @returns the request body; on Node.js a `Buffer` of exactly its length
   * @throws Error on an internal inconsistency (never expected)
   */
  finish(): Uint8Array {
    // Resource and scope messages are read now (a resource still settling its attributes when
    // the first span was added has them by now), each its own encoding: before the size pass.
    for (const rg of this.resources) {
      rg.head = resourceBytes(rg.resource);
      for (const sg of rg.scopes) sg.head = scopeBytes(sg.scope);
    }
    // Size pass.
    beginSizing();
    let total = 0;
    for (const rg of this.resources) {
      let rlen = fieldSize(rg.head.length);
      for (const sg of rg.scopes) {
        let slen = fieldSize(sg.head.length) + sg.used;
        const schemaUrl = sg.scope.schemaUrl;
        if (schemaUrl) slen += sizeStringField(schemaUrl);
        sg.len = slen;
        rlen += fieldSize(slen);
      }
      const schemaUrl = rg.resource.schemaUrl;
      if (schemaUrl) rlen += sizeStringField(schemaUrl);
      rg.len = rlen;
      total += fieldSize(rlen);
    }
    // Write pass.
    allocate(total);
    for (const rg of this.resources) {
      writeGroupStart(REQUEST_RESOURCE_SPANS, rg.len, rg.head);
      for (const sg of rg.scopes) {
        writeGroupStart(RESOURCE_SPANS_SCOPE_SPANS, sg.len, sg.head);
        writeBytes(sg.bytes.subarray(0, sg.used));
        const schemaUrl = sg.scope.schemaUrl;
        if (schemaUrl) {
          writeByte(SCOPE_SPANS_SCHEMA_URL);
          writeStr(schemaUrl, nextSize());
        }
      }
      const schemaUrl = rg.resource.schemaUrl;
      if (schemaUrl) {
        writeByte(RESOURCE_SPANS_SCHEMA_URL);
        writeStr(schemaUrl, nextSize());
      }
    }
    return finish(total);
  }

  /** The run of the span's resource and scope, by identity (consecutive spans mostly share one). */
  private runOf(span: ReadableSpan): ScopeRun {
    const resource = span.resource;
    const scope = span.instrumentationScope as Scope;
    if (resource === this.lastResource && scope === this.lastScope) return this.lastRun!;
    let rg = this.byResource.get(resource);
    if (!rg) {
      rg = { resource, scopes: [], byScope: new Map(), len: 0, head: EMPTY_BYTES };
      this.byResource.set(resource, rg);
      this.resources.push(rg);
    }
    let sg = rg.byScope.get(scope);
    if (!sg) {
      sg = { scope, bytes: EMPTY_BYTES, used: 0, len: 0, head: EMPTY_BYTES };
      rg.byScope.set(scope, sg);
      rg.scopes.push(sg);
    }
    this.lastResource = resource;
    this.lastScope = scope;
    this.lastRun = sg;
    return sg;
  }
}

const EMPTY_BYTES = new Uint8Array(0);

/** A larger run holding the first `used` bytes of `bytes`, with room for `needed`. */
function grown(bytes: Uint8Array, used: number, needed: number): Uint8Array {
  const next = newBuffer(Math.max(needed, bytes.length * 2, RUN_START_BYTES));
  next.set(bytes.subarray(0, used));
  return next;
}

/**
 * Opens a `ResourceSpans` or `ScopeSpans` message of `len` bytes (field `fieldTag` of its parent)
 * and writes its first field (1): the pre-encoded `Resource` or `InstrumentationScope`.
 */
function writeGroupStart(fieldTag: number, len: number, head: Uint8Array): void {
  writeByte(fieldTag);
  writeVarint(len);
  writeByte(GROUP_HEAD);
  writeVarint(head.length);
  writeBytes(head);
}

/**
 * Encodes spans as an OTLP/protobuf `ExportTraceServiceRequest`.
 *
 * @returns the request body; on Node.js a `Buffer` of exactly its length
 * @throws Error on an internal inconsistency (never expected; the exporter reports it as a failed export)
 */
export function encodeTraceExportRequest(spans: readonly ReadableSpan[]): Uint8Array {
  const batch = new EncodedSpanBatch();
  for (let i = 0; i < spans.length; i++) batch.add(spans[i]!);
  return batch.finish();
}

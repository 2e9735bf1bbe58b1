/**
 * A hand-written encoder of OTLP `ExportTraceServiceRequest` (opentelemetry/proto
 * collector/trace/v1) in protobuf, straight from `ReadableSpan`s.
 *
 * Its output is byte for byte what `ProtobufTraceSerializer.serializeRequest` of
 * `@opentelemetry/otlp-transformer` 0.2xx produces (same grouping by resource then scope, same
 * fields, including the zero dropped counts and the span flags), at a fraction of the cost:
 *
 * - two passes over the spans: the first computes the length of every nested message and every
 *   string's UTF-8 length into one reusable `Int32Array`, in the order the second pass needs
 *   them; the second writes into a single buffer of the exact size, so nothing is ever moved
 *   (the official writer reserves one byte per length and shifts the message when it needs more);
 * - strings are measured and written once each: short ASCII ones by JS loops, the others by the
 *   runtime's native code (`Buffer` on Node, `TextEncoder#encodeInto` elsewhere);
 * - attribute keys, the same on every span, are encoded once (with their `KeyValue` field tags)
 *   and copied afterwards;
 * - trace and span ids go from hex to bytes in place, no `Uint8Array` per id;
 * - the `Resource` and `InstrumentationScope` messages are encoded once per object and reused by
 *   every later batch.
 *
 * Not reentrant (module-level scratch state); encoding is synchronous, so that never matters.
 */
import type { Attributes, HrTime, Link, SpanContext } from '@opentelemetry/api';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import { isNodeRuntime } from './compression.js';

type Resource = ReadableSpan['resource'];
type Scope = ReadableSpan['instrumentationScope'] & { attributes?: Attributes; droppedAttributesCount?: number };

/** The parts of Node's `Buffer` used here, reached through `globalThis` (edge bundles never import it). */
interface NodeBuffer extends Uint8Array {
  write(s: string, offset: number, length: number, encoding: 'utf8' | 'latin1'): number;
  /** Undocumented but long-standing `Buffer` methods that skip `write`'s argument handling. */
  latin1Write?(s: string, offset: number, length: number): number;
  utf8Write?(s: string, offset: number, length: number): number;
}
interface NodeBufferClass {
  allocUnsafe(size: number): NodeBuffer;
  byteLength(s: string, encoding: 'utf8'): number;
}

const NodeBuf: NodeBufferClass | undefined = isNodeRuntime()
  ? (globalThis as { Buffer?: NodeBufferClass }).Buffer
  : undefined;
const textEncoder = new TextEncoder();
const hasOwn = Object.prototype.hasOwnProperty;

/** Strings at least this long are measured by native code on Node (a JS loop below). */
const NATIVE_LENGTH_MIN = 16;
/** ASCII strings at least this long are copied by native code (a JS loop below). */
const NATIVE_WRITE_MIN = 32;
/** Most attribute keys whose encoded form is kept; past it the cache starts over. */
const KEY_CACHE_MAX = 4096;
/** Scratch entries kept between batches (more is released after the batch). */
const SCRATCH_KEEP = 1 << 18;

// int64 range of AnyValue.int_value (both bounds are exact doubles).
const MIN_INT64 = -(2 ** 63);
const MAX_INT64 = 2 ** 63;

const HEX = new Uint8Array(256);
for (let i = 0; i < 10; i++) HEX[48 + i] = i;
for (let i = 0; i < 6; i++) HEX[97 + i] = HEX[65 + i] = 10 + i;

// ---------------------------------------------------------------------------------------------
// Scratch state of one encoding.

/** Output of the write pass. */
let buf: Uint8Array = new Uint8Array(0);
let nodeBuf: NodeBuffer | undefined;
let view: DataView = new DataView(buf.buffer);
let pos = 0;
/** Lengths from the size pass, in the order the write pass consumes them. */
let sizes = new Int32Array(8192);
/** Next free slot (size pass). */
let sn = 0;
/** Next slot to read (write pass). */
let si = 0;

function growSizes(): void {
  const next = new Int32Array(sizes.length * 2);
  next.set(sizes);
  sizes = next;
}

/** Reserves a slot, filled once the size it stands for is known. */
function slot(): number {
  if (sn === sizes.length) growSizes();
  return sn++;
}

function push(v: number): void {
  if (sn === sizes.length) growSizes();
  sizes[sn++] = v;
}

function allocate(size: number): void {
  if (NodeBuf) {
    nodeBuf = NodeBuf.allocUnsafe(size);
    buf = nodeBuf;
  } else {
    nodeBuf = undefined;
    buf = new Uint8Array(size);
  }
  view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  pos = 0;
  si = 0;
  ki = 0;
}

// ---------------------------------------------------------------------------------------------
// Sizes.

/** Bytes of a varint holding a length (0 <= n < 2^32). */
function vs(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
}

/** Bytes of the varint of an int64 held in a number (negative ones take 10). */
function vs64(v: number): number {
  if (v < 0) return 10;
  if (v < 0x10000000) return vs(v);
  if (v < 0x800000000) return 5;
  if (v < 0x40000000000) return 6;
  if (v < 0x2000000000000) return 7;
  if (v < 0x100000000000000) return 8;
  return 9;
}

/** UTF-8 length of a string as `TextEncoder`/`Buffer` write it (a lone surrogate becomes U+FFFD). */
function utf8Length(s: string): number {
  const n = s.length;
  if (n >= NATIVE_LENGTH_MIN && NodeBuf) return NodeBuf.byteLength(s, 'utf8');
  let len = n;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) len += 1;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < n) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) {
        len += 2; // 2 UTF-16 units, 4 bytes
        i++;
      } else len += 2;
    } else len += 2;
  }
  return len;
}

function isInt64(v: number): boolean {
  return Number.isInteger(v) && v >= MIN_INT64 && v < MAX_INT64;
}

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
  bytes[p++] = 0x0a;
  for (let v = n; ; ) {
    if (v < 0x80) {
      bytes[p++] = v;
      break;
    }
    bytes[p++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  bytes.set(utf8, p);
  bytes[p + n] = 0x12;
  if (keyCache.size >= KEY_CACHE_MAX) keyCache.clear();
  keyCache.set(key, bytes);
  return bytes;
}

/** Key prefixes found by the size pass, in the order the write pass copies them. */
let keyRefs: Uint8Array[] = [];
let kn = 0;
let ki = 0;

/** Repeated `KeyValue` fields of an attribute map (every such field has a one-byte tag). */
function sizeKeyValues(attrs: Attributes): number {
  let total = 0;
  for (const key in attrs) {
    if (!hasOwn.call(attrs, key)) continue;
    const kvSlot = slot();
    const prefix = keyPrefix(key);
    keyRefs[kn++] = prefix;
    const anySlot = slot();
    const al = sizeAny(attrs[key]);
    sizes[anySlot] = al;
    const kv = prefix.length + vs(al) + al;
    sizes[kvSlot] = kv;
    total += 1 + vs(kv) + kv;
  }
  return total;
}

/** Length of an `AnyValue` message (what `writeAny` writes). */
function sizeAny(v: unknown): number {
  switch (typeof v) {
    case 'string': {
      const bl = utf8Length(v);
      push(bl);
      return 1 + vs(bl) + bl;
    }
    case 'boolean':
      return 2;
    case 'number':
      return isInt64(v) ? 1 + vs64(v) : 9;
    case 'object': {
      if (v === null) return 0;
      if (v instanceof Uint8Array) return 1 + vs(v.length) + v.length;
      const s = slot();
      let len: number;
      if (Array.isArray(v)) {
        len = 0;
        for (let i = 0; i < v.length; i++) {
          const itemSlot = slot();
          const il = sizeAny(v[i]);
          sizes[itemSlot] = il;
          len += 1 + vs(il) + il;
        }
      } else len = sizeKeyValues(v as Attributes);
      sizes[s] = len;
      return 1 + vs(len) + len;
    }
    default:
      return 0; // undefined, functions, symbols, bigints: an empty AnyValue, as the official one
  }
}

function sizeBytesField(n: number): number {
  return 1 + vs(n) + n;
}

function sizeStringField(s: string): number {
  const bl = utf8Length(s);
  push(bl);
  return 1 + vs(bl) + bl;
}

function sizeEvent(ev: TimedEvent): number {
  const s = slot();
  let len = 9 + sizeStringField(ev.name);
  if (ev.attributes) len += sizeKeyValues(ev.attributes);
  len += 1 + vs(ev.droppedAttributesCount || 0);
  sizes[s] = len;
  return 1 + vs(len) + len;
}

/** Fields 1-3 of both `Span` and `Span.Link`: trace id, span id, trace state (what `writeIds` writes). */
function sizeIds(ctx: SpanContext): number {
  const len = sizeBytesField(ctx.traceId.length >>> 1) + sizeBytesField(ctx.spanId.length >>> 1);
  const ts = ctx.traceState?.serialize();
  return ts ? len + sizeStringField(ts) : len;
}

function sizeLink(link: Link): number {
  const s = slot();
  let len = sizeIds(link.context);
  if (link.attributes) len += sizeKeyValues(link.attributes);
  len += 1 + vs(link.droppedAttributesCount || 0) + 5;
  sizes[s] = len;
  return 1 + vs(len) + len;
}

/** A `Span` field of `ScopeSpans`, tag and length included. */
function sizeSpan(span: ReadableSpan): number {
  const s = slot();
  let len = sizeIds(span.spanContext());
  const parent = span.parentSpanContext?.spanId;
  if (parent) len += sizeBytesField(parent.length >>> 1);
  len += sizeStringField(span.name);
  const kind = span.kind == null ? 0 : span.kind + 1;
  if (kind !== 0) len += 1 + vs(kind);
  len += 18; // start and end times
  if (span.attributes) len += sizeKeyValues(span.attributes);
  len += 1 + vs(span.droppedAttributesCount);
  const events = span.events;
  for (let i = 0; i < events.length; i++) len += sizeEvent(events[i]!);
  len += 1 + vs(span.droppedEventsCount);
  const links = span.links;
  for (let i = 0; i < links.length; i++) len += sizeLink(links[i]!);
  len += 1 + vs(span.droppedLinksCount);
  // status
  const status = span.status;
  const stSlot = slot();
  const st = (status.message ? sizeStringField(status.message) : 0) + 1 + vs(status.code);
  sizes[stSlot] = st;
  len += 1 + vs(st) + st;
  len += 6; // flags: two-byte tag + fixed32
  sizes[s] = len;
  return 1 + vs(len) + len;
}

// ---------------------------------------------------------------------------------------------
// Writing.

function writeVarint(n: number): void {
  while (n > 0x7f) {
    buf[pos++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  buf[pos++] = n;
}

/** An int64 varint from a number known to be an integer in the int64 range. */
function writeVarint64(v: number): void {
  if (v >= 0 && v <= 0xffffffff) {
    writeVarint(v >>> 0);
    return;
  }
  let low: number;
  let high: number;
  if (v >= 0) {
    low = v >>> 0;
    high = (v / 0x100000000) >>> 0;
  } else {
    const abs = -v;
    low = ~(abs >>> 0) >>> 0;
    high = ~((abs / 0x100000000) >>> 0) >>> 0;
    low = (low + 1) >>> 0;
    if (low === 0) high = (high + 1) >>> 0;
  }
  while (high > 0 || low > 0x7f) {
    buf[pos++] = (low & 0x7f) | 0x80;
    low = ((low >>> 7) | (high << 25)) >>> 0;
    high >>>= 7;
  }
  buf[pos++] = low & 0x7f;
}

function writeFixed32(v: number): void {
  buf[pos++] = v & 0xff;
  buf[pos++] = (v >>> 8) & 0xff;
  buf[pos++] = (v >>> 16) & 0xff;
  buf[pos++] = (v >>> 24) & 0xff;
}

/**
 * HrTime `[seconds, nanoseconds]` as fixed64 nanoseconds, exact: seconds are split into 16-bit
 * halves so no product leaves the safe-integer range (same arithmetic as the official encoder).
 */
function writeHrTime(t: HrTime): void {
  const seconds = t[0];
  const nanos = t[1];
  const fromLow = (seconds & 0xffff) * 1_000_000_000;
  const fromHigh = ((seconds / 0x10000) >>> 0) * 1_000_000_000;
  const low = (fromLow >>> 0) + (((fromHigh & 0xffff) * 0x10000) >>> 0) + nanos;
  const high = (Math.floor(fromLow / 0x100000000) + ((fromHigh / 0x10000) >>> 0) + Math.floor(low / 0x100000000)) >>> 0;
  writeFixed32(low >>> 0);
  writeFixed32(high);
}

/** A bytes field's length and content from a hex id. */
function writeHex(hex: string): void {
  const n = hex.length >>> 1;
  writeVarint(n);
  for (let i = 0; i < n; i++) {
    buf[pos++] = (HEX[hex.charCodeAt(2 * i) & 0xff]! << 4) | HEX[hex.charCodeAt(2 * i + 1) & 0xff]!;
  }
}

/** A string's length and UTF-8 bytes; `bl` is its UTF-8 length from the size pass. */
function writeStr(s: string, bl: number): void {
  writeVarint(bl);
  const n = s.length;
  if (bl === n && n < NATIVE_WRITE_MIN) {
    for (let i = 0; i < n; i++) buf[pos++] = s.charCodeAt(i);
    return;
  }
  let written: number;
  if (nodeBuf) {
    if (bl === n) written = nodeBuf.latin1Write ? nodeBuf.latin1Write(s, pos, bl) : nodeBuf.write(s, pos, bl, 'latin1');
    else written = nodeBuf.utf8Write ? nodeBuf.utf8Write(s, pos, bl) : nodeBuf.write(s, pos, bl, 'utf8');
  } else written = textEncoder.encodeInto(s, buf.subarray(pos, pos + bl)).written;
  if (written !== bl) throw new Error(`OTLP encoder: wrote ${written} bytes of a ${bl}-byte string`);
  pos += bl;
}

function writeKeyValues(attrs: Attributes, tag: number): void {
  for (const key in attrs) {
    if (!hasOwn.call(attrs, key)) continue;
    buf[pos++] = tag;
    writeVarint(sizes[si++]!);
    const prefix = keyRefs[ki++]!;
    buf.set(prefix, pos);
    pos += prefix.length;
    writeVarint(sizes[si++]!);
    writeAny(attrs[key]);
  }
}

function writeAny(v: unknown): void {
  switch (typeof v) {
    case 'string':
      buf[pos++] = 0x0a;
      writeStr(v, sizes[si++]!);
      return;
    case 'boolean':
      buf[pos++] = 0x10;
      buf[pos++] = v ? 1 : 0;
      return;
    case 'number':
      if (isInt64(v)) {
        buf[pos++] = 0x18;
        writeVarint64(v);
      } else {
        buf[pos++] = 0x21;
        view.setFloat64(pos, v, true);
        pos += 8;
      }
      return;
    case 'object': {
      if (v === null) return;
      if (v instanceof Uint8Array) {
        buf[pos++] = 0x3a;
        writeVarint(v.length);
        buf.set(v, pos);
        pos += v.length;
        return;
      }
      if (Array.isArray(v)) {
        buf[pos++] = 0x2a;
        writeVarint(sizes[si++]!);
        for (let i = 0; i < v.length; i++) {
          buf[pos++] = 0x0a;
          writeVarint(sizes[si++]!);
          writeAny(v[i]);
        }
        return;
      }
      buf[pos++] = 0x32;
      writeVarint(sizes[si++]!);
      writeKeyValues(v as Attributes, 0x0a);
      return;
    }
    default:
  }
}

function writeEvent(ev: TimedEvent): void {
  buf[pos++] = 0x5a;
  writeVarint(sizes[si++]!);
  buf[pos++] = 0x09;
  writeHrTime(ev.time);
  buf[pos++] = 0x12;
  writeStr(ev.name, sizes[si++]!);
  if (ev.attributes) writeKeyValues(ev.attributes, 0x1a);
  buf[pos++] = 0x20;
  writeVarint(ev.droppedAttributesCount || 0);
}

/** Fields 1-3 of both `Span` and `Span.Link`: trace id, span id, trace state. */
function writeIds(ctx: SpanContext): void {
  buf[pos++] = 0x0a;
  writeHex(ctx.traceId);
  buf[pos++] = 0x12;
  writeHex(ctx.spanId);
  const ts = ctx.traceState?.serialize();
  if (ts) {
    buf[pos++] = 0x1a;
    writeStr(ts, sizes[si++]!);
  }
}

function writeLink(link: Link): void {
  buf[pos++] = 0x6a;
  writeVarint(sizes[si++]!);
  const ctx = link.context;
  writeIds(ctx);
  if (link.attributes) writeKeyValues(link.attributes, 0x22);
  buf[pos++] = 0x28;
  writeVarint(link.droppedAttributesCount || 0);
  buf[pos++] = 0x35;
  writeFixed32(spanFlags(ctx.traceFlags, ctx.isRemote));
}

/** W3C trace flags in the low byte, then HAS_IS_REMOTE (0x100) and IS_REMOTE (0x200). */
function spanFlags(traceFlags: number, isRemote: boolean | undefined): number {
  return (traceFlags & 0xff) | 0x100 | (isRemote ? 0x200 : 0);
}

function writeSpan(span: ReadableSpan): void {
  buf[pos++] = 0x12;
  writeVarint(sizes[si++]!);
  const ctx = span.spanContext();
  writeIds(ctx);
  const parent = span.parentSpanContext;
  if (parent?.spanId) {
    buf[pos++] = 0x22;
    writeHex(parent.spanId);
  }
  buf[pos++] = 0x2a;
  writeStr(span.name, sizes[si++]!);
  const kind = span.kind == null ? 0 : span.kind + 1;
  if (kind !== 0) {
    buf[pos++] = 0x30;
    writeVarint(kind);
  }
  buf[pos++] = 0x39;
  writeHrTime(span.startTime);
  buf[pos++] = 0x41;
  writeHrTime(span.endTime);
  if (span.attributes) writeKeyValues(span.attributes, 0x4a);
  buf[pos++] = 0x50;
  writeVarint(span.droppedAttributesCount);
  const events = span.events;
  for (let i = 0; i < events.length; i++) writeEvent(events[i]!);
  buf[pos++] = 0x60;
  writeVarint(span.droppedEventsCount);
  const links = span.links;
  for (let i = 0; i < links.length; i++) writeLink(links[i]!);
  buf[pos++] = 0x70;
  writeVarint(span.droppedLinksCount);
  const status = span.status;
  buf[pos++] = 0x7a;
  writeVarint(sizes[si++]!);
  if (status.message) {
    buf[pos++] = 0x12;
    writeStr(status.message, sizes[si++]!);
  }
  buf[pos++] = 0x18;
  writeVarint(status.code);
  buf[pos++] = 0x85;
  buf[pos++] = 0x01;
  writeFixed32(spanFlags(ctx.traceFlags, parent?.isRemote));
}

// ---------------------------------------------------------------------------------------------
// Resource and scope messages, encoded once per object.

const resourceCache = new WeakMap<object, Uint8Array>();
const scopeCache = new WeakMap<object, Uint8Array>();

/** Runs a size pass then a write pass over one message and returns its bytes. */
function encodeMessage(size: () => number, write: () => void): Uint8Array {
  sn = 0;
  kn = 0;
  const total = size();
  allocate(total);
  write();
  if (pos !== total || si !== sn || ki !== kn) throw new Error(`OTLP encoder: ${pos} bytes written, ${total} expected`);
  return buf;
}

/** `Resource` message: attributes, then dropped_attributes_count 0 (written, as the official one does). */
function resourceBytes(resource: Resource): Uint8Array {
  let bytes = resourceCache.get(resource);
  if (bytes) return bytes;
  const attrs = resource.attributes;
  bytes = encodeMessage(
    () => (attrs ? sizeKeyValues(attrs) : 0) + 2,
    () => {
      if (attrs) writeKeyValues(attrs, 0x0a);
      buf[pos++] = 0x10;
      buf[pos++] = 0;
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
      buf[pos++] = 0x0a;
      writeStr(scope.name, sizes[si++]!);
      if (scope.version) {
        buf[pos++] = 0x12;
        writeStr(scope.version, sizes[si++]!);
      }
      if (scope.attributes) writeKeyValues(scope.attributes, 0x1a);
      if (scope.droppedAttributesCount) {
        buf[pos++] = 0x20;
        writeVarint(scope.droppedAttributesCount);
      }
    },
  );
  scopeCache.set(scope, bytes);
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// The request.

interface ScopeGroup {
  scope: Scope;
  spans: ReadableSpan[];
  bytes: Uint8Array;
  /** Length of the `ScopeSpans` message. */
  len: number;
}

interface ResourceGroup {
  resource: Resource;
  scopes: Map<object, ScopeGroup>;
  bytes: Uint8Array;
  /** Length of the `ResourceSpans` message. */
  len: number;
}

/** Groups spans by resource, then scope, by identity and in order of first appearance (as the official one). */
function group(spans: readonly ReadableSpan[]): ResourceGroup[] {
  const groups: ResourceGroup[] = [];
  const byResource = new Map<object, ResourceGroup>();
  let lastResource: unknown;
  let lastScope: unknown;
  let lastSpans: ReadableSpan[] | undefined;
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i]!;
    const resource = span.resource;
    const scope = span.instrumentationScope;
    if (resource === lastResource && scope === lastScope) {
      lastSpans!.push(span);
      continue;
    }
    let rg = byResource.get(resource);
    if (!rg) {
      rg = { resource, scopes: new Map(), bytes: resourceBytes(resource), len: 0 };
      byResource.set(resource, rg);
      groups.push(rg);
    }
    let sg = rg.scopes.get(scope);
    if (!sg) {
      sg = { scope, spans: [], bytes: scopeBytes(scope), len: 0 };
      rg.scopes.set(scope, sg);
    }
    sg.spans.push(span);
    lastResource = resource;
    lastScope = scope;
    lastSpans = sg.spans;
  }
  return groups;
}

/**
 * Opens a `ResourceSpans` (tag 0x0a) or `ScopeSpans` (tag 0x12) message of `len` bytes and writes
 * its first field: the pre-encoded `Resource` or `InstrumentationScope` (field 1).
 */
function writeGroupStart(tag: number, len: number, head: Uint8Array): void {
  buf[pos++] = tag;
  writeVarint(len);
  buf[pos++] = 0x0a;
  writeVarint(head.length);
  buf.set(head, pos);
  pos += head.length;
}

/**
 * Encodes spans as an OTLP/protobuf `ExportTraceServiceRequest`.
 *
 * @returns the request body; on Node.js a `Buffer` of exactly its length
 * @throws Error on an internal inconsistency (never expected; the exporter reports it as a failed export)
 */
export function encodeTraceExportRequest(spans: readonly ReadableSpan[]): Uint8Array {
  const groups = group(spans);
  // Size pass.
  sn = 0;
  kn = 0;
  let total = 0;
  for (const rg of groups) {
    let rlen = 1 + vs(rg.bytes.length) + rg.bytes.length;
    for (const sg of rg.scopes.values()) {
      let slen = 1 + vs(sg.bytes.length) + sg.bytes.length;
      const list = sg.spans;
      for (let i = 0; i < list.length; i++) slen += sizeSpan(list[i]!);
      const schemaUrl = sg.scope.schemaUrl;
      if (schemaUrl) slen += sizeStringField(schemaUrl);
      sg.len = slen;
      rlen += 1 + vs(slen) + slen;
    }
    const schemaUrl = rg.resource.schemaUrl;
    if (schemaUrl) rlen += sizeStringField(schemaUrl);
    rg.len = rlen;
    total += 1 + vs(rlen) + rlen;
  }
  // Write pass.
  allocate(total);
  for (const rg of groups) {
    writeGroupStart(0x0a, rg.len, rg.bytes);
    for (const sg of rg.scopes.values()) {
      writeGroupStart(0x12, sg.len, sg.bytes);
      const list = sg.spans;
      for (let i = 0; i < list.length; i++) writeSpan(list[i]!);
      const schemaUrl = sg.scope.schemaUrl;
      if (schemaUrl) {
        buf[pos++] = 0x1a;
        writeStr(schemaUrl, sizes[si++]!);
      }
    }
    const schemaUrl = rg.resource.schemaUrl;
    if (schemaUrl) {
      buf[pos++] = 0x1a;
      writeStr(schemaUrl, sizes[si++]!);
    }
  }
  const out = buf;
  const written = pos;
  const consumed = si;
  const keysConsumed = ki;
  // Drop the references: the body belongs to the caller now. Scratch grown by a huge batch is let go.
  buf = new Uint8Array(0);
  nodeBuf = undefined;
  view = new DataView(buf.buffer);
  if (sizes.length > SCRATCH_KEEP) sizes = new Int32Array(8192);
  if (keyRefs.length > SCRATCH_KEEP) keyRefs = [];
  if (written !== total || consumed !== sn || keysConsumed !== kn) {
    throw new Error(`OTLP encoder: ${written} bytes written, ${total} expected (${consumed}/${sn} sizes)`);
  }
  return out;
}

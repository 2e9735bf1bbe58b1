/**
 * Protobuf wire primitives for a two-pass encoder: a size pass records every nested message's
 * length and every string's UTF-8 length in one reusable `Int32Array` (in the order the write
 * pass consumes them), then the write pass fills one buffer of the exact size, so nothing is
 * ever moved. Strings are measured and written once each: short ASCII ones by JS loops, the
 * others by the runtime's native code (`Buffer` on Node, `TextEncoder#encodeInto` elsewhere).
 *
 * Not reentrant (module-level scratch state); encoding is synchronous, so that never matters.
 * What the bytes mean (messages, field numbers) is `otlp-proto-encoder.ts`'s business.
 */
import type { HrTime } from '@opentelemetry/api';
import { isNodeRuntime } from '../../../util/runtime.js';

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

const NodeBuf: NodeBufferClass | undefined = isNodeRuntime() ? (globalThis as { Buffer?: NodeBufferClass }).Buffer : undefined;
export const textEncoder = new TextEncoder();

/** Strings at least this long are measured by native code on Node (a JS loop below). */
const NATIVE_LENGTH_MIN = 16;
/** ASCII strings at least this long are copied by native code (a JS loop below). */
const NATIVE_WRITE_MIN = 32;
/** Scratch entries kept between batches (more is released after the batch). */
const SCRATCH_KEEP = 1 << 18;

// int64 range (both bounds are exact doubles).
const MIN_INT64 = -(2 ** 63);
const MAX_INT64 = 2 ** 63;

const HEX = new Uint8Array(256);
for (let i = 0; i < 10; i++) HEX[48 + i] = i;
for (let i = 0; i < 6; i++) HEX[97 + i] = HEX[65 + i] = 10 + i;

// ---------------------------------------------------------------------------------------------
// Scratch state of one encoding.

const EMPTY = new Uint8Array(0);
const EMPTY_VIEW = new DataView(EMPTY.buffer);
/** Output of the write pass. */
let buf: Uint8Array = EMPTY;
let nodeBuf: NodeBuffer | undefined;
let view: DataView = EMPTY_VIEW;
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
export function slot(): number {
  if (sn === sizes.length) growSizes();
  return sn++;
}

export function push(v: number): void {
  if (sn === sizes.length) growSizes();
  sizes[sn++] = v;
}

/** Bytes a write pass can fill: a Node `Buffer` on Node.js (native string writes), else a `Uint8Array`. */
export function newBuffer(size: number): Uint8Array {
  return NodeBuf ? NodeBuf.allocUnsafe(size) : new Uint8Array(size);
}

/** Starts a write pass into a new buffer of exactly `size` bytes (`finish` returns it). */
export function allocate(size: number): void {
  writeInto(newBuffer(size), 0);
}

/**
 * Starts a write pass into `target` from `offset` (a buffer from `newBuffer`, with room for what
 * the size pass measured); `endWrite` closes it.
 */
export function writeInto(target: Uint8Array, offset: number): void {
  buf = target;
  nodeBuf = NodeBuf ? (target as NodeBuffer) : undefined;
  view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  pos = offset;
  si = 0;
  ki = 0;
}

/** Fills a slot reserved by `slot()` (size pass). */
export function fill(s: number, v: number): void {
  sizes[s] = v;
}

/** The next recorded size (write pass). */
export function nextSize(): number {
  return sizes[si++]!;
}

/** Starts a size pass. */
export function beginSizing(): void {
  sn = 0;
  kn = 0;
}

/** Records a pre-encoded chunk to copy in the write pass (size pass). */
export function pushChunk(bytes: Uint8Array): void {
  chunks[kn++] = bytes;
}

/** Key prefixes and other pre-encoded chunks found by the size pass, in write order. */
let chunks: Uint8Array[] = [];
let kn = 0;
let ki = 0;

/** Copies the next recorded chunk (write pass). */
export function writeNextChunk(): void {
  const bytes = chunks[ki++]!;
  buf.set(bytes, pos);
  pos += bytes.length;
}

/**
 * Ends a write pass: hands the buffer to the caller (the scratch state lets go of it, and of
 * scratch grown by a huge message), after checking that both passes agree.
 */
export function finish(expected: number): Uint8Array {
  const out = buf;
  endWrite(expected);
  return out;
}

/**
 * Ends a write pass begun by `writeInto` (or `allocate`), which must have reached `end`; lets go
 * of the buffer.
 *
 * @throws Error when the passes disagree (an encoder bug: the bytes are not to be sent)
 */
export function endWrite(end: number): void {
  const written = pos;
  const consumed = si;
  const chunksConsumed = ki;
  buf = EMPTY;
  nodeBuf = undefined;
  view = EMPTY_VIEW;
  if (sizes.length > SCRATCH_KEEP) sizes = new Int32Array(8192);
  if (chunks.length > SCRATCH_KEEP) chunks = [];
  if (written !== end || consumed !== sn || chunksConsumed !== kn) {
    throw new Error(`OTLP encoder: wrote up to byte ${written}, ${end} expected (${consumed}/${sn} sizes)`);
  }
}

// ---------------------------------------------------------------------------------------------
// Sizes.

/** Bytes of a varint holding a length (0 <= n < 2^32). */
export function vs(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
}

/** Bytes of the varint of an int64 held in a number (negative ones take 10). */
export function vs64(v: number): number {
  if (v < 0) return 10;
  if (v < 0x10000000) return vs(v);
  if (v < 0x800000000) return 5;
  if (v < 0x40000000000) return 6;
  if (v < 0x2000000000000) return 7;
  if (v < 0x100000000000000) return 8;
  return 9;
}

/** UTF-8 length of a string as `TextEncoder`/`Buffer` write it (a lone surrogate becomes U+FFFD). */
export function utf8Length(s: string): number {
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

export function isInt64(v: number): boolean {
  return Number.isInteger(v) && v >= MIN_INT64 && v < MAX_INT64;
}

// ---------------------------------------------------------------------------------------------
// Writing.

export function writeVarint(n: number): void {
  while (n > 0x7f) {
    buf[pos++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  buf[pos++] = n;
}

/** An int64 varint from a number known to be an integer in the int64 range. */
export function writeVarint64(v: number): void {
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

export function writeFixed32(v: number): void {
  buf[pos++] = v & 0xff;
  buf[pos++] = (v >>> 8) & 0xff;
  buf[pos++] = (v >>> 16) & 0xff;
  buf[pos++] = (v >>> 24) & 0xff;
}

/** HrTime `[seconds, nanoseconds]` as fixed64 nanoseconds. */
export function writeHrTime(t: HrTime): void {
  writeNanos(t[0], t[1]);
}

/**
 * Epoch milliseconds as fixed64 nanoseconds: the value `writeHrTime` writes for the `HrTime`
 * the light span would build from them (`msToHrTime`), without building it. Nanoseconds that
 * round up to 1e9 need no carry into the seconds: `writeNanos` writes the sum.
 */
export function writeEpochMs(ms: number): void {
  const seconds = Math.floor(ms / 1e3);
  writeNanos(seconds, Math.round((ms - seconds * 1e3) * 1e6));
}

/**
 * `seconds * 1e9 + nanos` as fixed64, exact: seconds are split into 16-bit halves so no product
 * leaves the safe-integer range (same arithmetic as the official encoder).
 */
function writeNanos(seconds: number, nanos: number): void {
  const fromLow = (seconds & 0xffff) * 1_000_000_000;
  const fromHigh = ((seconds / 0x10000) >>> 0) * 1_000_000_000;
  const low = (fromLow >>> 0) + (((fromHigh & 0xffff) * 0x10000) >>> 0) + nanos;
  const high = (Math.floor(fromLow / 0x100000000) + ((fromHigh / 0x10000) >>> 0) + Math.floor(low / 0x100000000)) >>> 0;
  writeFixed32(low >>> 0);
  writeFixed32(high);
}

/** A bytes field's length and content from a hex id. */
export function writeHex(hex: string): void {
  const n = hex.length >>> 1;
  writeVarint(n);
  for (let i = 0; i < n; i++) {
    buf[pos++] = (HEX[hex.charCodeAt(2 * i) & 0xff]! << 4) | HEX[hex.charCodeAt(2 * i + 1) & 0xff]!;
  }
}

/** A string's length and UTF-8 bytes; `bl` is its UTF-8 length from the size pass. */
export function writeStr(s: string, bl: number): void {
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

/** One byte (a field tag, a bool). */
export function writeByte(b: number): void {
  buf[pos++] = b;
}

/** Raw bytes (pre-encoded messages, bytes values without their length). */
export function writeBytes(bytes: Uint8Array): void {
  buf.set(bytes, pos);
  pos += bytes.length;
}

/** A little-endian double (fixed64). */
export function writeDouble(v: number): void {
  view.setFloat64(pos, v, true);
  pos += 8;
}

/** Length of a length-delimited field with a one-byte tag, tag included. */
export function fieldSize(len: number): number {
  return 1 + vs(len) + len;
}

/** Wire types. */
export const VARINT = 0;
export const FIXED64 = 1;
export const LEN = 2;
export const FIXED32 = 5;

/** The tag of a field with a number below 16 (one byte): `(field << 3) | wireType`. */
export function tag(field: number, wireType: number): number {
  if (field >= 16) throw new Error(`field ${field} needs a two-byte tag`);
  return (field << 3) | wireType;
}

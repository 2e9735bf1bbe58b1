/**
 * A minimal protobuf wire-format reader: just what the OTLP trace decoder needs.
 */

/** Wire types of the protobuf encoding. */
export const WireType = { VARINT: 0, I64: 1, LEN: 2, SGROUP: 3, EGROUP: 4, I32: 5 } as const;

/** Thrown on a malformed protobuf message. */
export class ProtoDecodeError extends Error {
  override name = 'ProtoDecodeError';
}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Reads fields from one protobuf message held in a byte range. */
export class ProtoReader {
  private pos: number;
  private end: number;
  /** Shared by every reader over the same body: a `DataView` per embedded message was most of the decode. */
  private readonly view: DataView;
  /** The body as a `Buffer`, whose `toString` decodes UTF-8 ranges faster than `TextDecoder` (no view per string). */
  private readonly text: Buffer;
  /** Wire type of the last `tag()`. */
  wireType = 0;

  constructor(
    private readonly buf: Uint8Array,
    start = 0,
    end = buf.length,
    view?: DataView,
    text?: Buffer,
  ) {
    this.pos = start;
    this.end = end;
    this.view = view ?? new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.text = text ?? (Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength));
  }

  /** Whether fields remain. */
  more(): boolean {
    return this.pos < this.end;
  }

  /** Reads a field tag: returns its number and keeps its wire type in `wireType` (no tuple per field). */
  tag(): number {
    const key = this.varint();
    const field = Math.floor(key / 8);
    if (field === 0) throw new ProtoDecodeError(`invalid field number 0 at offset ${this.pos}`);
    this.wireType = key & 7;
    return field;
  }

  /** Reads a varint as a number (exact up to 2^53; used for tags, lengths, enums). */
  varint(): number {
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtoDecodeError('truncated varint');
      const b = this.buf[this.pos++]!;
      result += (b & 0x7f) * mul;
      if (b < 0x80) return result;
      mul *= 128;
    }
    throw new ProtoDecodeError('varint longer than 10 bytes');
  }

  /** Reads a varint as a signed 64-bit integer (`int64`). */
  int64(): bigint {
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtoDecodeError('truncated varint');
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return BigInt.asIntN(64, result);
      shift += 7n;
    }
    throw new ProtoDecodeError('varint longer than 10 bytes');
  }

  /** Reads a little-endian `fixed64`. */
  fixed64(): bigint {
    this.need(8);
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** Reads a little-endian `fixed32`. */
  fixed32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  /** Reads a little-endian `double`. */
  double(): number {
    this.need(8);
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** Steps over a length-delimited field's length and bytes, checked; returns where its bytes start. */
  private delimited(): number {
    const len = this.varint();
    this.need(len);
    const start = this.pos;
    this.pos += len;
    return start;
  }

  /** Reads a length-delimited field's bytes (a view, not a copy). */
  bytes(): Uint8Array {
    const start = this.delimited();
    return this.buf.subarray(start, this.pos);
  }

  /** Reads a length-delimited UTF-8 string. */
  string(): string {
    const start = this.delimited();
    return this.text.toString('utf8', start, this.pos);
  }

  /** Reads a length-delimited field as lower-case hex (ids). */
  hex(): string {
    const start = this.delimited();
    const buf = this.buf;
    let out = '';
    for (let i = start; i < this.pos; i++) out += HEX[buf[i]!];
    return out;
  }

  /**
   * Narrows this reader to the embedded message that follows (no new reader); returns the outer
   * end, which `exit` restores once the message is read.
   */
  enter(): number {
    const start = this.delimited();
    const outer = this.end;
    this.end = this.pos;
    this.pos = start;
    return outer;
  }

  /** Leaves the message `enter` narrowed to: skips what is left of it and restores the outer end. */
  exit(outer: number): void {
    this.pos = this.end;
    this.end = outer;
  }

  /** Returns a reader over an embedded message. */
  message(): ProtoReader {
    const start = this.delimited();
    return new ProtoReader(this.buf, start, this.pos, this.view, this.text);
  }

  /** Skips a field of the given wire type. */
  skip(wireType: number): void {
    switch (wireType) {
      case WireType.VARINT:
        this.varint();
        return;
      case WireType.I64:
        this.need(8);
        this.pos += 8;
        return;
      case WireType.LEN:
        this.delimited();
        return;
      case WireType.I32:
        this.need(4);
        this.pos += 4;
        return;
      default:
        throw new ProtoDecodeError(`unsupported wire type ${wireType} at offset ${this.pos}`);
    }
  }

  /** Throws unless the field has the expected wire type. */
  expect(field: number, wireType: number, expected: number): void {
    if (wireType !== expected) {
      throw new ProtoDecodeError(`field ${field}: wire type ${wireType}, expected ${expected}`);
    }
  }

  private need(n: number): void {
    if (this.pos + n > this.end) {
      throw new ProtoDecodeError(`truncated message: need ${n} bytes at offset ${this.pos}, have ${this.end - this.pos}`);
    }
  }
}

/**
 * A minimal protobuf wire-format reader: just what the OTLP trace decoder needs.
 */

/** Wire types of the protobuf encoding. */
export const WireType = { VARINT: 0, I64: 1, LEN: 2, SGROUP: 3, EGROUP: 4, I32: 5 } as const;

/** Thrown on a malformed protobuf message. */
export class ProtoDecodeError extends Error {
  override name = 'ProtoDecodeError';
}

const utf8 = new TextDecoder('utf-8');

/** Reads fields from one protobuf message held in a byte range. */
export class ProtoReader {
  private pos: number;
  private readonly end: number;
  private readonly view: DataView;

  constructor(
    private readonly buf: Uint8Array,
    start = 0,
    end = buf.length,
  ) {
    this.pos = start;
    this.end = end;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  /** Whether fields remain. */
  more(): boolean {
    return this.pos < this.end;
  }

  /** Reads a field tag: `[fieldNumber, wireType]`. */
  tag(): [number, number] {
    const key = this.varint();
    const field = Math.floor(key / 8);
    if (field === 0) throw new ProtoDecodeError(`invalid field number 0 at offset ${this.pos}`);
    return [field, key & 7];
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

  /** Reads a length-delimited field's bytes (a view, not a copy). */
  bytes(): Uint8Array {
    const len = this.varint();
    this.need(len);
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  /** Reads a length-delimited UTF-8 string. */
  string(): string {
    return utf8.decode(this.bytes());
  }

  /** Returns a reader over an embedded message. */
  message(): ProtoReader {
    const len = this.varint();
    this.need(len);
    const sub = new ProtoReader(this.buf, this.pos, this.pos + len);
    this.pos += len;
    return sub;
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
      case WireType.LEN: {
        const len = this.varint();
        this.need(len);
        this.pos += len;
        return;
      }
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

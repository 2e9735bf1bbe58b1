/**
 * Helpers shared by the protobuf and JSON decoders.
 */
import type { AttrValue, DecodedSpan } from '../types.js';

/** A decoded span before the transport facts (`encoding`, `compressed`) are known. */
export type SpanFields = Omit<DecodedSpan, 'startTime' | 'endTime' | 'durationMs' | 'encoding' | 'compressed'>;

/** Thrown on a malformed OTLP/JSON or OTLP protobuf request. */
export class OtlpDecodeError extends Error {
  override name = 'OtlpDecodeError';
}

/** Completes a span with its derived fields. */
export function completeSpan(fields: SpanFields, encoding: DecodedSpan['encoding'], compressed: boolean): DecodedSpan {
  return {
    ...fields,
    startTime: new Date(Number(fields.startTimeUnixNano / 1_000_000n)),
    endTime: new Date(Number(fields.endTimeUnixNano / 1_000_000n)),
    durationMs: Number(fields.endTimeUnixNano - fields.startTimeUnixNano) / 1e6,
    encoding,
    compressed,
  };
}

/** Lower-case hex of some bytes. */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** An id field: empty or all-zero ids count as absent. */
export function idOrUndefined(hex: string): string | undefined {
  return hex === '' || /^0+$/.test(hex) ? undefined : hex;
}

/** Builds an attribute record from key/value pairs (a later duplicate key wins). */
export function toRecord(pairs: Array<[string, AttrValue]>): Record<string, AttrValue> {
  const out: Record<string, AttrValue> = {};
  for (const [k, v] of pairs) out[k] = v;
  return out;
}

/**
 * A decoded span as a row's JSON text and back: nanosecond times (bigint) as decimal strings,
 * the `Date`s rebuilt from them, so a span read back equals the span kept.
 */
import type { DecodedSpan } from '../../types.js';

/** The span as JSON text. */
export function encodeSpan(span: DecodedSpan): string {
  const { startTime: _start, endTime: _end, ...rest } = span;
  return JSON.stringify({
    ...rest,
    startTimeUnixNano: String(span.startTimeUnixNano),
    endTimeUnixNano: String(span.endTimeUnixNano),
    events: span.events.map((e) => ({ ...e, timeUnixNano: String(e.timeUnixNano) })),
  });
}

/** The span that {@link encodeSpan} wrote. */
export function decodeSpan(text: string): DecodedSpan {
  const raw = JSON.parse(text) as Omit<DecodedSpan, 'startTime' | 'endTime'> & {
    startTimeUnixNano: string;
    endTimeUnixNano: string;
    events: Array<DecodedSpan['events'][number] & { timeUnixNano: string }>;
  };
  const start = BigInt(raw.startTimeUnixNano);
  const end = BigInt(raw.endTimeUnixNano);
  return {
    ...raw,
    startTimeUnixNano: start,
    endTimeUnixNano: end,
    startTime: new Date(Number(start / 1_000_000n)),
    endTime: new Date(Number(end / 1_000_000n)),
    events: raw.events.map((e) => ({ ...e, timeUnixNano: BigInt(e.timeUnixNano) })),
  };
}

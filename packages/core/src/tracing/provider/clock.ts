import type { HrTime, TimeInput } from '@opentelemetry/api';

/**
 * Span times as epoch milliseconds (fractional: sub-microsecond resolution), read from the
 * monotonic clock. The wall-clock offset is re-read once a second, so a long-running process
 * follows NTP adjustments without paying a `Date.now()` per span.
 */
let offset = Date.now() - performance.now();
let offsetReadAt = performance.now();

/** Now, in epoch milliseconds. */
export function nowMs(): number {
  const mono = performance.now();
  if (mono - offsetReadAt > 1000) {
    offset = Date.now() - mono;
    offsetReadAt = mono;
  }
  return mono + offset;
}

/**
 * A `TimeInput` in epoch milliseconds, as the OpenTelemetry SDK reads it: a number not later
 * than `performance.now()` is a performance timestamp; a larger number is epoch milliseconds.
 */
export function timeInputToMs(time: TimeInput): number | undefined {
  if (typeof time === 'number') return time <= performance.now() ? time + offset : time;
  if (time instanceof Date) return time.getTime();
  if (Array.isArray(time) && time.length === 2 && typeof time[0] === 'number' && typeof time[1] === 'number') {
    return time[0] * 1e3 + time[1] / 1e6;
  }
  return undefined;
}

/** Epoch milliseconds as OpenTelemetry's `[seconds, nanoseconds]`. */
export function msToHrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1e3);
  const nanos = Math.round((ms - seconds * 1e3) * 1e6);
  return nanos >= 1e9 ? [seconds + 1, nanos - 1e9] : [seconds, nanos];
}

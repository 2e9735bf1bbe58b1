/**
 * Run times. Each run tree anchors a clock to the wall clock once, at its root's start, and
 * advances it with the monotonic clock: sub-millisecond order within the tree, no drift over a
 * long-lived process. OpenTelemetry anchors every span the same way (`Date.now()` at its start),
 * so spans of the same trace made elsewhere agree within the millisecond of that anchor.
 */
export function anchorClock(): number {
  return Date.now() - performance.now();
}

/** The time on a clock anchored by `anchorClock()`, in epoch milliseconds (fraction kept). */
export function readClock(anchor: number): number {
  return anchor + performance.now();
}

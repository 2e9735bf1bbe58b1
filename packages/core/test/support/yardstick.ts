/**
 * Timing bounds against a same-run yardstick, never an absolute: what a value may cost is what
 * `JSON.stringify` of it costs on this machine, now, ten times over.
 */

/** The shortest of three runs of `fn`, in ms: what it costs, without one GC pause of a loaded machine. */
export function fastestOf3(fn: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    fn();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/**
 * 50 ms, or ten copies of the value through `JSON.stringify` timed in the same run if that is
 * more: on a loaded 2-core machine a linear pass over 5 MB alone can take tens of ms, and the
 * bound is there to catch work that grows faster than the value (a backtracking regex, a
 * quadratic walk), which ten linear passes cannot hide.
 */
export function budgetFor(value: unknown): number {
  const copy = fastestOf3(() => {
    try {
      JSON.stringify(value);
    } catch {
      // Hostile by design: the yardstick is whatever the copy cost until it threw.
    }
  });
  return Math.max(50, 10 * copy);
}

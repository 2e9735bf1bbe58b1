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
 * Ten copies of the value through `JSON.stringify`, timed in the same run: a linear pass over 5 MB
 * alone can take tens of ms on a loaded 2-core machine, and a bound of ten is there to catch work
 * that grows faster than the value (a backtracking regex, a quadratic walk), which ten linear
 * passes cannot hide.
 */
export function copyBudget(value: unknown): number {
  return (
    10 *
    fastestOf3(() => {
      try {
        JSON.stringify(value);
      } catch {
        // Hostile by design: the yardstick is whatever the copy cost until it threw.
      }
    })
  );
}

/** `copyBudget`, but at least 50 ms: for a bound that adds an idle event loop's noise to it. */
export function budgetFor(value: unknown): number {
  return Math.max(50, copyBudget(value));
}

/**
 * A bound for work that must be linear in its input, from two yardsticks of the same run, timed in
 * turn (five rounds, the least of each, so all see the same load): `quarter`, the same work on a
 * quarter of the value (a linear pass costs 4 times it, a bit more once the value leaves the CPU's
 * cache; a quadratic one 16 times), and `copy`, a linear pass over the whole value (`JSON.stringify`
 * of it; work that is linear but a few times slower per character stays within 10 times it). Work
 * within either bound is linear; a backtracking regex or a quadratic walk over a megabyte exceeds
 * both by orders of magnitude, whatever the load.
 */
export function linearGrowth(whole: () => void, quarter: () => void, copy: () => void): { took: number; bound: number } {
  const [took, quarterTook, copyTook] = leastOf([whole, quarter, copy], 5) as [number, number, number];
  return { took, bound: Math.max(8 * quarterTook, 10 * copyTook) };
}

/**
 * The least time of each of `fns`, in ms, timed in turn for `rounds` rounds: a measure and its
 * yardsticks under the same load, without one pause of a loaded machine.
 */
export function leastOf(fns: ReadonlyArray<() => void>, rounds = 3): number[] {
  const least = fns.map(() => Number.POSITIVE_INFINITY);
  for (let round = 0; round < rounds; round++) {
    fns.forEach((fn, i) => {
      const started = performance.now();
      fn();
      least[i] = Math.min(least[i]!, performance.now() - started);
    });
  }
  return least;
}

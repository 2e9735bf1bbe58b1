/**
 * Work a flush must wait for: a request observation that is about to end (waiting a moment for
 * its async `identify`) would otherwise be overtaken by `flush()` and left out of it. The
 * request layer registers such work; `initObs`'s flush and shutdown wait for it.
 */
const pending = new Set<Promise<void>>();

/** Registers work that must finish before a flush goes on; it leaves the set when it settles. */
export function holdFlushUntil(work: Promise<void>): void {
  pending.add(work);
  void work.finally(() => pending.delete(work));
}

/** Resolves once every registered piece of work has settled (including work added meanwhile). */
export async function settleBeforeFlush(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}

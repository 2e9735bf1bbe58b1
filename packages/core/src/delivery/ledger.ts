/**
 * The work a sender accepted and has not ended (a batch, a request, a medium from its ask to its
 * report), by number in the order accepted, and the waits for it: `settled()` resolves once the
 * work accepted before the call has ended, whatever came after. A flush under steady traffic
 * then waits for what it was asked to deliver, not for a quiet moment that may never come (a
 * serverless function kept open to its timeout). Work ends in any order; the oldest open number
 * is the first of the set (a `Set` iterates in insertion order), so each end costs O(1) plus the
 * waits it releases.
 */
export class Ledger {
  private readonly open = new Set<number>();
  private last = 0;
  /** Waits, in the order made (so by `upTo`): each for the work numbered up to `upTo`. */
  private waits: { upTo: number; resolve: () => void }[] = [];

  /** Opens one piece of work; the returned function ends it (once; later calls do nothing). */
  begin(): () => void {
    const id = ++this.last;
    this.open.add(id);
    return () => this.end(id);
  }

  /** Resolves once every piece of work begun before this call has ended. */
  settled(): Promise<void> {
    const upTo = this.last;
    if (!(this.oldest() <= upTo)) return Promise.resolve();
    return new Promise((resolve) => this.waits.push({ upTo, resolve }));
  }

  /** Resolves every wait (the sender stopped: what is open will never be delivered). */
  releaseAll(): void {
    for (const { resolve } of this.waits.splice(0)) resolve();
  }

  private end(id: number): void {
    if (!this.open.delete(id) || this.waits.length === 0) return;
    const oldest = this.oldest();
    let n = 0;
    while (n < this.waits.length && this.waits[n]!.upTo < oldest) this.waits[n++]!.resolve();
    if (n > 0) this.waits.splice(0, n);
  }

  /** The oldest open number; Infinity when nothing is open. */
  private oldest(): number {
    for (const id of this.open) return id;
    return Number.POSITIVE_INFINITY;
  }
}

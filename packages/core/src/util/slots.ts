/** A bound on concurrent work: the media upload's asks and uploads. */

/** At most `limit` pieces of work at once; the rest wait their turn, first come first served. */
export class Slots {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly limit: number) {}

  /** Work waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Work running. */
  get busy(): number {
    return this.active;
  }

  /** Runs `work` once a slot is free. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  /** Lets every waiting piece of work go on at once (a drain past its deadline: they fail fast); returns how many. */
  release(): number {
    const n = this.waiting.length;
    for (const go of this.waiting.splice(0)) go();
    return n;
  }
}

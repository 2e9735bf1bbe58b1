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

  /** Runs `work` once a slot is free. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    // A freed slot passes straight to the next in line, so no newcomer slips in between.
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  /** Lets every waiting piece of work go on at once (a drain past its deadline: they fail fast); returns how many. */
  release(): number {
    const n = this.waiting.length;
    this.active += n;
    for (const go of this.waiting.splice(0)) go();
    return n;
  }
}

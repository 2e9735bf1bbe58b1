/**
 * The wire under a sender: one attempt of one request, and aborting every attempt in flight (a
 * drain past its deadline). Each attempt gets an `AbortController` made with it (on Cloudflare
 * Workers a signal belongs to the request whose code made it, so one long-lived signal would
 * fail requests made while serving another). Requests are counted in flight by lane (the media
 * upload's asks and PUTs are bounded apart). Whether the target ever answered is remembered
 * here: a host name that stops resolving after it did is an outage, not a typo. The bytes go over
 * `post.ts` / `node-post.ts`; what an answer means is `outcome.ts`'s.
 */
import type { PostResult } from './post.js';

/** What one attempt came to: an answer, or the error of a request that got none. */
export interface Tried {
  answer?: PostResult;
  error?: unknown;
  /** Whether the target had answered before (this attempt included). */
  reached: boolean;
}

export class Wire {
  /** Attempts in flight, with their lanes. */
  private readonly open = new Map<AbortController, string>();
  private reached = false;

  /** Attempts in flight in `lane`, or in all lanes. */
  busy(lane?: string): number {
    if (lane === undefined) return this.open.size;
    let n = 0;
    for (const l of this.open.values()) if (l === lane) n++;
    return n;
  }

  /**
   * One attempt of `request`, counted in `lane` from this call on (synchronously); undefined when
   * the request was not sent (no longer wanted). Never rejects.
   */
  async send(request: (signal: AbortSignal) => Promise<PostResult | undefined>, lane: string): Promise<Tried | undefined> {
    const controller = new AbortController();
    this.open.set(controller, lane);
    try {
      const answer = await request(controller.signal);
      if (answer !== undefined) this.reached = true;
      return answer && { answer, reached: true };
    } catch (error) {
      return { error, reached: this.reached };
    } finally {
      this.open.delete(controller);
    }
  }

  /** Aborts every attempt in flight with `why`. */
  abort(why: Error): void {
    for (const controller of this.open.keys()) controller.abort(why);
    this.open.clear();
  }
}

/**
 * What a sender holds, counted: items and bytes waiting (buffered, being packed or split, between
 * retries, or, for the media upload, a medium between the steps of its protocol) and items in
 * requests awaiting an answer; whether more fits within its bounds; and what is left of it when a
 * drain's deadline comes. The bytes of a request in flight leave the buffer's bound (as in
 * OpenTelemetry's and Sentry's buffers, a request under way is not waiting) and come back with
 * it when it is retried.
 */
import type { Leftover } from './drain.js';

/** The bounds of what waits. */
export interface AccountLimits {
  maxBufferItems: number;
  maxBufferBytes: number;
}

export class Account {
  /** Items waiting. */
  items = 0;
  /** Bytes waiting. */
  bytes = 0;
  /** Items in requests awaiting an answer. */
  flying = 0;

  /** Items accepted and not answered yet. */
  get pending(): number {
    return this.items + this.flying;
  }

  /** Whether `items` more items of `bytes` fit within `limits`. */
  fits(items: number, bytes: number, limits: AccountLimits): boolean {
    return this.bytes + bytes <= limits.maxBufferBytes && this.items + items <= limits.maxBufferItems;
  }

  add(items: number, bytes: number): void {
    this.items += items;
    this.bytes += bytes;
  }

  remove(items: number, bytes: number): void {
    this.items -= items;
    this.bytes -= bytes;
  }

  /** A request of `items` (holding `bytes`) leaves. */
  depart(items: number, bytes: number): void {
    this.remove(items, bytes);
    this.flying += items;
  }

  /** The answer to a request of `items` came (or its attempt ended without one). */
  land(items: number): void {
    this.flying -= items;
  }

  /** What is left when a drain gives up: waiting items were never sent (or were answered with a failure), flying ones may have arrived. */
  left(): Leftover {
    return { unsent: this.items, inFlight: this.flying };
  }
}

/**
 * The bounded retry buffer between a producer of batches (the span exporter, the score queue)
 * and the wire: batches wait here as request bodies, encoded once (never as objects, so an
 * outage holds a few hundred bytes per item), at most `maxConcurrent` are sent at once (one
 * during an outage), a failed batch goes back to the front and is retried with backoff and
 * jitter (honouring `Retry-After`) until its time budget runs out, a batch refused as too large
 * is split in two, and a permanent refusal is dropped at once. Nothing here keeps the process
 * alive (timers are unref'd); a flush or shutdown bounds its own wait (`drainWithin`). Every item
 * lost is counted and reported by `OutageLog`.
 */
import { logger } from '../util/logger.js';
import { backoffDelay } from '../util/retry.js';
import { DrainDeadlines, type Leftover } from './drain.js';
import { OutageLog } from './outage-log.js';
import type { SendOutcome } from './outcome.js';

export type { SendOutcome } from './outcome.js';

/** Limits of the delivery queue. */
export interface DeliveryLimits {
  /** Most bytes of request bodies (compressed when the kind compresses) buffered; past it new batches are dropped (counted). */
  maxBufferBytes: number;
  /** Most items buffered. */
  maxBufferItems: number;
  /** Requests in flight at once. */
  maxConcurrent: number;
  /** How long a batch is retried after its first failure, in ms. */
  retryBudgetMs: number;
  /** First backoff wait, in ms (doubled per failure, jittered). */
  backoffMs: number;
  /** Ceiling of a backoff wait, in ms. */
  maxBackoffMs: number;
  /** Most attempts per batch; default: as many as the budget allows. */
  maxAttempts?: number;
}

/** Defaults: ~64 MB of request bodies, 4 requests in flight, a minute of retries. */
export const DEFAULT_DELIVERY_LIMITS: DeliveryLimits = {
  maxBufferBytes: 64 * 1024 * 1024,
  maxBufferItems: 200_000,
  maxConcurrent: 4,
  retryBudgetMs: 60_000,
  backoffMs: 200,
  maxBackoffMs: 5_000,
};

/** `DEFAULT_DELIVERY_LIMITS` with the limits in `overrides` that are set. */
export function deliveryLimits(
  overrides: Partial<DeliveryLimits> | undefined,
  base: DeliveryLimits = DEFAULT_DELIVERY_LIMITS,
): DeliveryLimits {
  const set = Object.entries(overrides ?? {}).filter(([, v]) => v !== undefined);
  return { ...base, ...(Object.fromEntries(set) as Partial<DeliveryLimits>) };
}

/** One half of a split request: its body and how many items it carries. */
export interface RequestPart {
  body: Uint8Array;
  items: number;
}

/** How the queue compresses, splits and sends request bodies; the kind (exporter, score queue) provides it. */
export interface DeliveryTransport {
  /** The body to hold and send for an encoded batch (compressed, or the same bytes). */
  pack(encoded: Uint8Array): Promise<Uint8Array>;
  /** Two packed bodies of about half the items each (or one when it cannot be split). */
  split(body: Uint8Array): Promise<RequestPart[]>;
  send(body: Uint8Array, itemCount: number): Promise<SendOutcome>;
  /** Aborts requests in flight (a drain past its deadline). */
  abortAll(): void;
}

/** What a delivery queue is for: its transport, what it counts, where it sends. */
export interface DeliveryQueueOptions {
  /** `spans`, `scores`, ...: the unit of its log lines. */
  unit: string;
  /** Where batches go, for its log lines (no credentials: a base URL holding some is refused at start). */
  target: string;
  limits?: DeliveryLimits;
  /** Interval between "still failing" lines of one outage, in ms. */
  reportEveryMs?: number;
  /** Items accepted upstream and not handed over yet (a batch being filled), counted as buffered in outage lines. */
  waiting?: () => number;
}

/** Answers the producer once every item of one handed-over batch is delivered or lost. */
class Ticket {
  private failed = false;
  private reason: string | undefined;
  constructor(
    private remaining: number,
    private readonly done: (ok: boolean, reason?: string) => void,
  ) {}
  split(): void {
    this.remaining += 1;
  }
  settle(ok: boolean, reason?: string): void {
    if (!ok) {
      this.failed = true;
      this.reason ??= reason;
    }
    if (--this.remaining === 0) this.done(!this.failed, this.reason);
  }
}

interface Batch {
  /** How many items the body carries. */
  items: number;
  body: Uint8Array;
  ticket: Ticket;
  /** Time of the first failed attempt; the retry budget counts from there. */
  failedSince?: number;
  /** Attempts so far. */
  attempts: number;
}

export class DeliveryQueue {
  readonly unit: string;
  private readonly limits: DeliveryLimits;
  private readonly queue: Batch[] = [];
  private bytes = 0;
  private items = 0;
  private active = 0;
  /** Batches being packed or split, on their way into the queue (in order). */
  private preparing = 0;
  private preparingItems = 0;
  private preparingBytes = 0;
  /**
   * Preparations run one at a time: batches enter the queue in the order they were handed over,
   * and a burst (a flush at shutdown) takes one thread of libuv's pool for gzip, not all of it
   * (the app's file, DNS and crypto work shares that pool).
   */
  private preparations: Promise<unknown> = Promise.resolve();
  /** Items in requests awaiting an answer. */
  private inFlightItems = 0;
  /** Consecutive failed attempts: the backoff exponent. */
  private failures = 0;
  /** The last answer was a refusal: one request at a time until one is delivered (no burst of doomed DNS lookups or handshakes). */
  private refusing = false;
  /** Until then batches are refused without a request, for `refusedWhy` (a bad certificate, a name that does not resolve). */
  private refusedUntil = 0;
  private refusedWhy = '';
  private waitTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the retry wait under way ends. */
  private waitEndsAt = 0;
  /** The drains waiting for this queue: its retry waits leave room for an attempt before their deadlines. */
  private readonly drains = new DrainDeadlines();
  private idleWaiters: (() => void)[] = [];
  private stopped = false;
  /** The exit flush: one more attempt per batch, no waits, no retries. */
  private lastRound = false;
  /** Items the last round gave up on (never sent, or sent without an answer), and the last reason. */
  private gaveUp = { unsent: 0, inFlight: 0 };
  private gaveUpReason: string | undefined;
  private readonly outage: OutageLog;

  constructor(
    private readonly transport: DeliveryTransport,
    options: DeliveryQueueOptions,
  ) {
    this.unit = options.unit;
    this.limits = options.limits ?? DEFAULT_DELIVERY_LIMITS;
    const waiting = options.waiting;
    this.outage = new OutageLog(
      options.target,
      { buffered: () => this.pendingItems + (waiting?.() ?? 0) },
      { unit: options.unit, reportEveryMs: options.reportEveryMs },
    );
  }

  /** Items buffered (waiting for a request or a retry). */
  get bufferedItems(): number {
    return this.items;
  }

  /** Items accepted and not answered yet: being packed, buffered, or in flight. */
  get pendingItems(): number {
    return this.items + this.preparingItems + this.inFlightItems;
  }

  /**
   * Buffers the request body `encode` gives for `count` items (run once, here, so an encoding
   * failure is counted as their loss); `done(ok)` runs once they are delivered or lost. Never throws.
   */
  enqueue(count: number, encode: () => Uint8Array, done: (ok: boolean, reason?: string) => void): void {
    if (this.stopped) {
      this.outage.lost(count, 'they came after shutdown');
      done(false);
      return;
    }
    let body: Uint8Array;
    try {
      body = encode();
    } catch (err) {
      this.outage.lost(count, `they could not be serialised (${(err as Error)?.message ?? String(err)})`);
      done(false);
      return;
    }
    // Before packing, the encoded size stands in for the body's: an upper bound under gzip.
    const waiting = this.items + this.preparingItems;
    const bytes = this.bytes + this.preparingBytes;
    if (bytes + body.byteLength > this.limits.maxBufferBytes || waiting + count > this.limits.maxBufferItems) {
      this.outage.lost(
        count,
        `the export buffer is full (${waiting} ${this.unit}, ${bytes} bytes waiting; limits ${this.limits.maxBufferItems} ${this.unit}, ${this.limits.maxBufferBytes} bytes)`,
      );
      done(false);
      return;
    }
    const ticket = new Ticket(1, done);
    this.prepare(
      { items: count, bytes: body.byteLength, ticket },
      () => this.transport.pack(body),
      (packed) => this.push({ items: count, body: packed, ticket, attempts: 0 }, false),
      (reason) => {
        this.outage.lost(count, `they could not be compressed (${reason})`);
        ticket.settle(false);
      },
    );
  }

  /** Resolves when nothing is buffered or in flight (at once once stopped). */
  whenIdle(): Promise<void> {
    if (this.isIdle() || this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * The exit flush: every batch buffered or handed over from now on gets one more attempt, at
   * once and without the one-probe rule; a failure is given up (counted for `endLastTry`).
   */
  lastTry(): void {
    if (this.stopped) return;
    this.lastRound = true;
    if (this.waitTimer) clearTimeout(this.waitTimer);
    this.waitTimer = undefined;
    this.pump();
  }

  /** Ends the last round: what it gave up on, and back to retrying. */
  endLastTry(): Leftover {
    const left: Leftover = { ...this.gaveUp, reason: this.gaveUpReason };
    this.lastRound = false;
    this.gaveUp = { unsent: 0, inFlight: 0 };
    this.gaveUpReason = undefined;
    return left;
  }

  /**
   * Stops retrying: what is still buffered or in flight is dropped and every pending `done`
   * runs. Returns the counts (with what a last round gave up on); the caller says them, in one
   * line for every kind it drains.
   */
  abandon(): Leftover {
    const given = this.endLastTry();
    this.stopped = true;
    if (this.waitTimer) clearTimeout(this.waitTimer);
    this.waitTimer = undefined;
    const left = this.queue.splice(0);
    const unsent = left.reduce((n, b) => n + b.items, 0) + this.preparingItems + given.unsent;
    const inFlight = this.inFlightItems + given.inFlight;
    this.bytes = 0;
    this.items = 0;
    this.transport.abortAll();
    for (const b of left) b.ticket.settle(false);
    for (const w of this.idleWaiters.splice(0)) w();
    return { unsent, inFlight, reason: given.reason ?? this.outage.reason };
  }

  /** Says what the outage log holds back (a drain ended; `final` at shutdown and exit). */
  settle(final: boolean): void {
    this.outage.settle(final);
  }

  /**
   * A drain waits until `deadline`: retry waits end at the latest halfway to it, the one under way
   * too (a wait scheduled before the drain, or a `Retry-After`, would outlive a server that
   * recovers before the deadline). Returns what ends that.
   */
  drainBy(deadline: number): () => void {
    const end = this.drains.add(deadline);
    if (this.waitTimer !== undefined) {
      const now = Date.now();
      const capped = this.drains.cap(this.waitEndsAt - now, now);
      if (now + capped < this.waitEndsAt) {
        clearTimeout(this.waitTimer);
        this.waitTimer = undefined;
        this.wait(capped);
      }
    }
    return end;
  }

  private isIdle(): boolean {
    return this.queue.length === 0 && this.active === 0 && this.preparing === 0;
  }

  /**
   * Runs `work` after every earlier preparation (so batches keep their order), counting its items
   * and bytes as buffered meanwhile, then hands the result to `ready` (or the reason to `failed`)
   * and pumps. After `abandon()`, which counted these items, the ticket is settled as failed and
   * nothing more is said.
   */
  private prepare<T>(
    { items, bytes, ticket }: { items: number; bytes: number; ticket: Ticket },
    work: () => Promise<T>,
    ready: (value: T) => void,
    failed: (reason: string) => void,
  ): void {
    this.preparing++;
    this.preparingItems += items;
    this.preparingBytes += bytes;
    const run = async () => {
      let value: T | undefined;
      let error: string | undefined;
      try {
        value = await work();
      } catch (err) {
        error = (err as Error)?.message ?? String(err);
      }
      this.preparing--;
      this.preparingItems -= items;
      this.preparingBytes -= bytes;
      if (this.stopped) ticket.settle(false);
      else if (error !== undefined) failed(error);
      else ready(value as T);
      this.pump();
    };
    this.preparations = this.preparations.then(run).catch((err) => logger.error(`export queue: ${String(err)}`));
  }

  private push(batch: Batch, front: boolean): void {
    if (front) this.queue.unshift(batch);
    else this.queue.push(batch);
    this.bytes += batch.body.byteLength;
    this.items += batch.items;
  }

  private pump(): void {
    while (!this.stopped && this.waitTimer === undefined && this.queue.length > 0 && this.active < this.limits.maxConcurrent) {
      // During an outage (or while the server refuses) one request probes it; the rest wait in the buffer.
      if (!this.lastRound && this.active > 0 && (this.refusing || (this.outage.active && this.failures > 0))) break;
      const batch = this.queue.shift()!;
      this.bytes -= batch.body.byteLength;
      this.items -= batch.items;
      if (this.refusedUntil > Date.now()) {
        this.drop(batch, this.refusedWhy);
        continue;
      }
      this.active++;
      this.inFlightItems += batch.items;
      void this.run(batch);
    }
    if (this.isIdle()) this.notifyIdle();
  }

  private async run(batch: Batch): Promise<void> {
    let outcome: SendOutcome;
    try {
      outcome = await this.transport.send(batch.body, batch.items);
    } catch (err) {
      outcome = { kind: 'retry', reason: (err as Error)?.message ?? String(err) };
    }
    this.active--;
    this.inFlightItems -= batch.items;
    batch.attempts++;
    if (this.stopped) {
      batch.ticket.settle(outcome.kind === 'delivered'); // abandon() already counted it
      return;
    }
    this.settleOutcome(batch, outcome);
    this.pump();
  }

  private settleOutcome(batch: Batch, outcome: SendOutcome): void {
    const now = Date.now();
    switch (outcome.kind) {
      case 'delivered':
        this.failures = 0;
        this.refusing = false;
        batch.ticket.settle(true);
        // Batches still being packed are new ones, not the outage's: they do not keep it open.
        this.outage.delivered(batch.items, this.queue.length === 0 && this.active === 0);
        return;
      case 'too-large':
        if (batch.items > 1) {
          this.splitAndRequeue(batch);
          return;
        }
        this.drop(batch, `the server refused a ${this.unit.replace(/s$/, '')} as too large even alone (${outcome.reason})`);
        return;
      case 'refused':
        this.refusing = true;
        if (outcome.holdMs !== undefined) {
          this.refusedUntil = now + outcome.holdMs;
          this.refusedWhy = outcome.reason;
        }
        this.drop(batch, outcome.reason);
        return;
      case 'retry': {
        if (this.lastRound) {
          this.giveUp(batch, outcome.reason, outcome.unanswered === true);
          return;
        }
        batch.failedSince ??= now;
        const budget = this.limits.retryBudgetMs;
        const outOfAttempts = this.limits.maxAttempts !== undefined && batch.attempts >= this.limits.maxAttempts;
        if (outOfAttempts || now - batch.failedSince >= budget) {
          // Dropped at its first failure (no budget, one attempt): a loss, not the start of an outage.
          if (batch.attempts > 1) this.outage.failed(outcome.reason, budget);
          const why =
            batch.attempts === 1 && (outOfAttempts || budget === 0)
              ? outcome.reason
              : outOfAttempts
                ? `tried ${batch.attempts} times (${outcome.reason})`
                : `retried for ${Math.round(budget / 1000)} s (${outcome.reason})`;
          this.outage.lost(batch.items, why);
          batch.ticket.settle(false, outcome.reason);
          return;
        }
        // Back in the buffer before the outage line counts what is buffered.
        this.push(batch, true);
        this.outage.failed(outcome.reason, budget);
        const wait =
          outcome.retryAfterMs ??
          backoffDelay(this.failures, { initialDelayMs: this.limits.backoffMs, maxDelayMs: this.limits.maxBackoffMs });
        this.failures++;
        this.wait(Math.min(wait, Math.max(0, batch.failedSince + budget - now)));
      }
    }
  }

  /** A batch that will never be taken: lost (or given up, in the last round), never retried. */
  private drop(batch: Batch, reason: string): void {
    if (this.lastRound) {
      this.giveUp(batch, reason);
      return;
    }
    this.outage.lost(batch.items, reason);
    batch.ticket.settle(false, reason);
  }

  private giveUp(batch: Batch, reason: string, unanswered = false): void {
    if (unanswered) this.gaveUp.inFlight += batch.items;
    else this.gaveUp.unsent += batch.items;
    this.gaveUpReason = reason;
    batch.ticket.settle(false, reason);
  }

  private splitAndRequeue(batch: Batch): void {
    const { ticket, failedSince, attempts } = batch;
    this.prepare(
      { items: batch.items, bytes: batch.body.byteLength, ticket },
      () => this.transport.split(batch.body),
      (parts) => {
        if (parts.length < 2) {
          this.drop(batch, 'the server refused them as too large and they could not be split');
          return;
        }
        ticket.split();
        // Second half first: unshift puts the first half in front of it.
        for (const part of [...parts].reverse()) {
          this.push({ items: part.items, body: part.body, ticket, failedSince, attempts }, true);
        }
      },
      (reason) => this.drop(batch, `they could not be split (${reason})`),
    );
  }

  private wait(requested: number): void {
    if (this.waitTimer !== undefined) return;
    const ms = this.drains.cap(requested);
    this.waitEndsAt = Date.now() + ms;
    this.waitTimer = setTimeout(() => {
      this.waitTimer = undefined;
      this.pump();
    }, ms);
    // Retries never keep a process alive; whoever waits for them (a flush) holds it open with its deadline.
    (this.waitTimer as { unref?: () => void }).unref?.();
  }

  private notifyIdle(): void {
    if (!this.isIdle() || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters.splice(0);
    for (const w of waiters) w();
  }
}

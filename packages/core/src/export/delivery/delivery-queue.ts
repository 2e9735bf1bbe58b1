/**
 * The bounded retry buffer between the span processor and the wire: batches wait here as request
 * bodies, encoded and compressed once (never as span objects, so an outage holds a few hundred
 * bytes per span), at most `maxConcurrent` are sent at once, a failed batch goes back to the front
 * and is retried with backoff and jitter (honouring `Retry-After`) until its time budget runs out,
 * and a batch refused as too large is split in two. Every span lost is counted and reported by
 * `OutageLog`.
 */
import { logger } from '../../util/logger.js';
import { backoffDelay } from '../../util/retry.js';
import { OutageLog } from '../../util/outage-log.js';

/** What one attempt to send a batch came to. */
export type SendOutcome =
  | { kind: 'delivered' }
  /** Worth another attempt (network error, timeout, 408, 429, 5xx). */
  | { kind: 'retry'; reason: string; retryAfterMs?: number }
  /** 413: split and resend. */
  | { kind: 'too-large'; reason: string }
  /** Another 4xx: the server will never take it. */
  | { kind: 'refused'; reason: string };

/** Limits of the delivery queue. */
export interface DeliveryLimits {
  /** Most bytes of request bodies (compressed when the exporter compresses) buffered; past it new batches are dropped (counted). */
  maxBufferBytes: number;
  /** Most spans buffered. */
  maxBufferSpans: number;
  /** Export requests in flight at once. */
  maxConcurrent: number;
  /** How long a batch is retried after its first failure, in ms. */
  retryBudgetMs: number;
  /** First backoff wait, in ms (doubled per failure, jittered). */
  backoffMs: number;
  /** Ceiling of a backoff wait, in ms. */
  maxBackoffMs: number;
}

/** Defaults: ~64 MB of request bodies, 4 requests in flight, a minute of retries. */
export const DEFAULT_DELIVERY_LIMITS: DeliveryLimits = {
  maxBufferBytes: 64 * 1024 * 1024,
  maxBufferSpans: 200_000,
  maxConcurrent: 4,
  retryBudgetMs: 60_000,
  backoffMs: 200,
  maxBackoffMs: 5_000,
};

/** One half of a split request: its body and how many spans it carries. */
export interface RequestPart {
  body: Uint8Array;
  spans: number;
}

/** How the queue compresses, splits and sends request bodies; the exporter provides it. */
export interface DeliveryTransport {
  /** The body to hold and send for an encoded batch (compressed, or the same bytes). */
  pack(encoded: Uint8Array): Promise<Uint8Array>;
  /** Two packed bodies of about half the spans each (or one when it cannot be split). */
  split(body: Uint8Array): Promise<RequestPart[]>;
  send(body: Uint8Array, spanCount: number): Promise<SendOutcome>;
  /** Aborts requests in flight (shutdown past its deadline). */
  abortAll(): void;
}

/** Answers the processor once every span of one handed-over batch is delivered or lost. */
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
  /** How many spans the body carries. */
  spans: number;
  body: Uint8Array;
  ticket: Ticket;
  /** Time of the first failed attempt; the retry budget counts from there. */
  failedSince?: number;
}

export class DeliveryQueue {
  private readonly queue: Batch[] = [];
  private bytes = 0;
  private spans = 0;
  private active = 0;
  /** Batches being packed or split, on their way into the queue (in order). */
  private preparing = 0;
  private preparingSpans = 0;
  private preparingBytes = 0;
  /**
   * Preparations run one at a time: batches enter the queue in the order they were handed over,
   * and a burst (a flush at shutdown) takes one thread of libuv's pool for gzip, not all of it
   * (the app's file, DNS and crypto work shares that pool).
   */
  private preparations: Promise<unknown> = Promise.resolve();
  /** Spans in requests awaiting an answer. */
  private inFlightSpans = 0;
  /** Consecutive failed attempts: the backoff exponent. */
  private failures = 0;
  private waitTimer: ReturnType<typeof setTimeout> | undefined;
  private idleWaiters: (() => void)[] = [];
  private stopped = false;
  private readonly outage: OutageLog;

  constructor(
    private readonly transport: DeliveryTransport,
    target: string,
    private readonly limits: DeliveryLimits = DEFAULT_DELIVERY_LIMITS,
    reportEveryMs?: number,
  ) {
    this.outage = new OutageLog(target, { buffered: () => this.spans + this.inFlightSpans }, reportEveryMs);
  }

  /** Spans buffered (waiting or being sent). */
  get bufferedSpans(): number {
    return this.spans;
  }

  /**
   * Buffers the request body `encode` gives for `count` spans (run once, here, so an encoding
   * failure is counted as their loss); `done(ok)` runs once they are delivered or lost. Never throws.
   */
  enqueue(count: number, encode: () => Uint8Array, done: (ok: boolean, reason?: string) => void): void {
    if (this.stopped) {
      this.outage.lost(count, 'the exporter is shut down');
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
    const waiting = this.spans + this.preparingSpans;
    const bytes = this.bytes + this.preparingBytes;
    if (bytes + body.byteLength > this.limits.maxBufferBytes || waiting + count > this.limits.maxBufferSpans) {
      this.outage.lost(
        count,
        `the export buffer is full (${waiting} spans, ${bytes} bytes waiting; limits ${this.limits.maxBufferSpans} spans, ${this.limits.maxBufferBytes} bytes)`,
      );
      done(false);
      return;
    }
    const ticket = new Ticket(1, done);
    this.prepare(
      { spans: count, bytes: body.byteLength, ticket },
      () => this.transport.pack(body),
      (packed) => this.push({ spans: count, body: packed, ticket }, false),
      (reason) => {
        this.outage.lost(count, `they could not be compressed (${reason})`);
        ticket.settle(false);
      },
    );
  }

  /**
   * Runs `work` after every earlier preparation (so batches keep their order), counting its spans
   * and bytes as buffered meanwhile, then hands the result to `ready` (or the reason to `failed`)
   * and pumps. After `abandon()`, which counted and reported these spans, the ticket is settled as
   * failed and nothing more is said.
   */
  private prepare<T>(
    { spans, bytes, ticket }: { spans: number; bytes: number; ticket: Ticket },
    work: () => Promise<T>,
    ready: (value: T) => void,
    failed: (reason: string) => void,
  ): void {
    this.preparing++;
    this.preparingSpans += spans;
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
      this.preparingSpans -= spans;
      this.preparingBytes -= bytes;
      if (this.stopped) ticket.settle(false);
      else if (error !== undefined) failed(error);
      else ready(value as T);
      this.pump();
    };
    this.preparations = this.preparations.then(run).catch((err) => logger.error(`export queue: ${String(err)}`));
  }

  /** Resolves when nothing is buffered or in flight. */
  whenIdle(): Promise<void> {
    if (this.isIdle() || this.stopped) return Promise.resolve();
    // A retry wait must hold the process open while someone waits for the flush.
    (this.waitTimer as { ref?: () => void } | undefined)?.ref?.();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Stops retrying: what is still buffered or in flight is lost (counted and logged once) and
   * every pending `done` runs. Used when shutdown runs out of time.
   */
  abandon(reason: string): void {
    this.stopped = true;
    if (this.waitTimer) clearTimeout(this.waitTimer);
    this.waitTimer = undefined;
    const left = this.queue.splice(0);
    const unsent = left.reduce((n, b) => n + b.spans, 0) + this.preparingSpans;
    const unconfirmed = this.inFlightSpans;
    this.bytes = 0;
    this.spans = 0;
    if (unsent + unconfirmed > 0) {
      logger.error(`${reason}: ${unsent} spans dropped unsent, ${unconfirmed} in flight without an answer (they may have arrived)`);
    }
    this.transport.abortAll();
    for (const b of left) b.ticket.settle(false);
    for (const w of this.idleWaiters.splice(0)) w();
  }

  private isIdle(): boolean {
    return this.queue.length === 0 && this.active === 0 && this.preparing === 0;
  }

  private push(batch: Batch, front: boolean): void {
    if (front) this.queue.unshift(batch);
    else this.queue.push(batch);
    this.bytes += batch.body.byteLength;
    this.spans += batch.spans;
  }

  private pump(): void {
    while (!this.stopped && this.waitTimer === undefined && this.queue.length > 0 && this.active < this.limits.maxConcurrent) {
      // During an outage one request probes the server; the rest wait in the buffer.
      if (this.outage.active && this.failures > 0 && this.active > 0) break;
      const batch = this.queue.shift()!;
      this.bytes -= batch.body.byteLength;
      this.spans -= batch.spans;
      this.active++;
      this.inFlightSpans += batch.spans;
      void this.run(batch);
    }
    if (this.isIdle()) this.notifyIdle();
  }

  private async run(batch: Batch): Promise<void> {
    let outcome: SendOutcome;
    try {
      outcome = await this.transport.send(batch.body, batch.spans);
    } catch (err) {
      outcome = { kind: 'retry', reason: (err as Error)?.message ?? String(err) };
    }
    this.active--;
    this.inFlightSpans -= batch.spans;
    if (this.stopped) {
      batch.ticket.settle(outcome.kind === 'delivered'); // abandon() already reported it
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
        batch.ticket.settle(true);
        // Batches still being packed are new ones, not the outage's: they do not keep it open.
        this.outage.delivered(batch.spans, this.queue.length === 0 && this.active === 0);
        return;
      case 'too-large':
        if (batch.spans > 1) {
          this.splitAndRequeue(batch);
          return;
        }
        this.outage.lost(1, `the server refused a span as too large even alone (${outcome.reason})`);
        batch.ticket.settle(false, outcome.reason);
        return;
      case 'refused':
        this.outage.lost(batch.spans, `the server refused them (${outcome.reason})`);
        batch.ticket.settle(false, outcome.reason);
        return;
      case 'retry': {
        this.outage.failed(outcome.reason, this.limits.retryBudgetMs);
        batch.failedSince ??= now;
        if (now - batch.failedSince >= this.limits.retryBudgetMs) {
          this.outage.lost(batch.spans, `retried for ${Math.round(this.limits.retryBudgetMs / 1000)} s (${outcome.reason})`);
          batch.ticket.settle(false, outcome.reason);
          return;
        }
        this.push(batch, true);
        const wait =
          outcome.retryAfterMs ??
          backoffDelay(this.failures, { initialDelayMs: this.limits.backoffMs, maxDelayMs: this.limits.maxBackoffMs });
        this.failures++;
        this.wait(Math.min(wait, Math.max(0, batch.failedSince + this.limits.retryBudgetMs - now)));
      }
    }
  }

  private splitAndRequeue(batch: Batch): void {
    const { ticket, failedSince } = batch;
    this.prepare(
      { spans: batch.spans, bytes: batch.body.byteLength, ticket },
      () => this.transport.split(batch.body),
      (parts) => {
        if (parts.length < 2) {
          this.outage.lost(batch.spans, 'the server refused them as too large and they could not be split');
          ticket.settle(false);
          return;
        }
        ticket.split();
        // Second half first: unshift puts the first half in front of it.
        for (const part of [...parts].reverse()) this.push({ spans: part.spans, body: part.body, ticket, failedSince }, true);
      },
      (reason) => {
        this.outage.lost(batch.spans, `they could not be split (${reason})`);
        ticket.settle(false);
      },
    );
  }

  private wait(ms: number): void {
    if (this.waitTimer !== undefined) return;
    this.waitTimer = setTimeout(() => {
      this.waitTimer = undefined;
      this.pump();
    }, ms);
    // Background retries never keep a process alive on their own; a flush refs the wait.
    if (this.idleWaiters.length === 0) (this.waitTimer as { unref?: () => void }).unref?.();
  }

  private notifyIdle(): void {
    if (!this.isIdle() || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters.splice(0);
    for (const w of waiters) w();
  }
}

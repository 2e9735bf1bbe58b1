/**
 * The one sender of everything obs sends: spans (the OTLP exporter), scores (the score queue),
 * the media upload's asks, PUTs and reports, and the API client's calls. It is made of named
 * parts, as OpenTelemetry's retrying transport over its HTTP transport under a bounded promise
 * handler, and Sentry's `createTransport` over a promise buffer and a rate limiter: the retry
 * policy (`retry-policy.ts`, pure: attempts, budget, backoff, `Retry-After`, `outcome.ts`'s
 * verdicts, waits cut by a drain's deadline), the account (`account.ts`: items, bytes, in
 * flight, what is left), the wire (`wire.ts`: one attempt, abort), and the outage log
 * (`outage-log.ts`), its one observer. What is its own is the line of requests waiting for their
 * turn, the one retry loop (`answered`), one timer for the retry waits, the exit flush's last
 * round, and the drain's view of it all (`DeliveryKind`).
 *
 * A sender of batches (`batches` set: spans, scores) holds request bodies, encoded once, in one
 * ordered line: packed one at a time in the order handed over, at most `maxConcurrent` in
 * flight and one during an outage or while the server refuses, a failed batch back at the front
 * and the whole line waiting with it, a batch refused as too large split in two; its losses are
 * said by the outage log. A sender of requests (media, API calls) sends each on its own: a
 * request's retries wait for it alone, lanes bound concurrency, and the caller says what a
 * failure means. Timers never keep the process alive (API calls, which their caller awaits,
 * excepted): a flush or shutdown bounds its own wait (`drainWithin`).
 */
import { logger } from '../util/logger.js';
import { unref } from '../util/unref.js';
import { Account } from './account.js';
import type { DeliveryKind, Leftover } from './drain.js';
import { Ledger } from './ledger.js';
import { answerOutcome, failureOutcome, type SendOutcome } from './outcome.js';
import { OutageLog } from './outage-log.js';
import type { PostResult } from './post.js';
import { capByDeadlines, nextStep, type RetryPolicy, type RetryState, type Step } from './retry-policy.js';
import { Wire, type Tried } from './wire.js';

export type { SendOutcome } from './outcome.js';
export type { Tried } from './wire.js';

/** Bounds of a sender: the retry policy, what may wait, how many requests of a batch sender are in flight. */
export interface DeliveryLimits extends RetryPolicy {
  /** Most bytes of request bodies (compressed when the kind compresses) waiting; past it new batches are dropped (counted). */
  maxBufferBytes: number;
  /** Most items waiting. */
  maxBufferItems: number;
  /** Requests of a batch sender in flight at once. */
  maxConcurrent: number;
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

/** `base` with the limits in `overrides` that are set. */
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

/** How a sender of batches packs, splits, sends and reads them (the span exporter's, the score queue's). */
export interface Batches {
  /** The body to hold and send for an encoded batch (compressed, or the same bytes). */
  pack(encoded: Uint8Array): Promise<Uint8Array>;
  /** Two packed bodies of about half the items each (or one when it cannot be split). */
  split(body: Uint8Array): Promise<RequestPart[]>;
  /** One POST of a body. */
  send(body: Uint8Array, signal: AbortSignal): Promise<PostResult>;
  /** What an attempt of `items` came to, given what `outcome.ts` reads in it (a debug line, a 207's rejections). */
  read?(tried: Tried, outcome: SendOutcome, items: number): SendOutcome;
}

/** One request of a sender of requests: an ask, PUT or report of the media upload, an API call. */
export interface Request {
  /** One attempt; resolves undefined when the request is no longer wanted (then it is neither sent nor retried). */
  send(signal: AbortSignal): Promise<PostResult | undefined>;
  /** What an attempt came to, given what `outcome.ts` reads in it; default that. */
  read?(tried: Tried, outcome: SendOutcome): SendOutcome;
  /** Its lane of `SenderOptions.lanes` (bounded concurrency); none: unbounded. */
  lane?: string;
  /** Its own limit of attempts (an API call's `maxRetries` + 1). */
  maxAttempts?: number;
  /** The caller's signal: once aborted, a request waiting for its turn or its retry ends at once. */
  signal?: AbortSignal;
  /** Items held for it already (`hold`): they count in flight while it is, and stay held when it ends. */
  held?: number;
}

/** How a request or a batch ended. */
export type End =
  | { ok: true; answer?: PostResult }
  | {
      ok: false;
      /** The last failure. */
      reason: string;
      /** The loss as a line says it (`tried 3 times (HTTP 503)`). */
      why: string;
      answer?: PostResult;
      error?: unknown;
      /** Counted by the drain that gave it up (the exit flush's last round, a deadline): said in the drain's line, not on its own. */
      gaveUp?: boolean;
      /** Never sent: no longer wanted, or its caller aborted it while it waited. */
      unsent?: boolean;
    };

export interface SenderOptions {
  /** `spans`, `scores`, `media`, `calls`: the unit of its counts and lines. */
  unit: string;
  /** Named in a drain's line only when it has something pending or left. */
  quiet?: boolean;
  /** Where it sends, for the outage log's lines (no credentials); without it nothing is logged (API calls: the caller hears). */
  target?: string;
  /** The reason given when the server refuses the keys (HTTP 401). */
  keysHint: string;
  limits?: Partial<DeliveryLimits>;
  /** Requests in flight at once per lane of a sender of requests. */
  lanes?: Record<string, number>;
  /** Set: a sender of batches, in one ordered line. */
  batches?: Batches;
  /** Between "still failing" lines of one outage, in ms. */
  reportEveryMs?: number;
  /** Items accepted upstream and not handed over yet (a batch being filled), counted as buffered in outage lines. */
  waiting?: () => number;
  /** How long the outage log says items are retried (the media upload's attempts times its timeout); default the retry budget. */
  retriedForMs?: number;
  /** Retry waits keep the process alive (API calls, whose caller awaits them); default false. */
  holdsProcess?: boolean;
}

/** A batch or a request on its way. */
interface Job {
  items: number;
  /** Bytes it holds while it waits (a batch's body). */
  bytes: number;
  /** A batch's body; undefined while it is packed or split. */
  body?: Uint8Array;
  request?: Request;
  attempts: number;
  failedSince?: number;
  /** Its retry wait ends then (0: ready). */
  readyAt: number;
  ended?: boolean;
  done(end: End): void;
}

/** The exit flush's last round: what it gave up. */
type Round = { unsent: number; inFlight: number; reason?: string };

export class Sender implements DeliveryKind {
  /** The one observer: outage, loss and recovery lines (none for API calls). */
  readonly log: OutageLog | undefined;
  private readonly limits: DeliveryLimits;
  private readonly account = new Account();
  private readonly wire = new Wire();
  /**
   * What waits for its turn (or its retry), in order, by lane: a sender of batches has one line,
   * a sender of requests one per lane, so a full lane's line is never walked for another's room.
   */
  private readonly lines = new Map<string, Job[]>();
  private state: RetryState = { failures: 0, refusing: false, deadlines: [] };
  /** Ends the earliest retry wait. */
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** `sending`; the exit flush's last round (one more attempt each, no waits, no retries); `stopped` by `abandon`. */
  private round: 'sending' | 'stopped' | Round = 'sending';
  /** The work accepted and not ended, by number: what `settled()` waits for. */
  private readonly ledger = new Ledger();
  /**
   * Packing and splitting run one at a time: batches become ready in the order they were handed
   * over, and a burst (a flush at shutdown) takes one thread of libuv's pool for gzip, not all of
   * it (the app's file, DNS and crypto work shares that pool).
   */
  private preparations: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: SenderOptions) {
    this.limits = deliveryLimits(o.limits);
    this.log =
      o.target === undefined
        ? undefined
        : new OutageLog({
            target: o.target,
            unit: o.unit,
            reportEveryMs: o.reportEveryMs,
            buffered: () => this.pending() + (o.waiting?.() ?? 0),
          });
  }

  get unit(): string {
    return this.o.unit;
  }

  get quiet(): boolean {
    return this.o.quiet === true;
  }

  /** Items accepted and not answered yet: being packed, waiting, or in flight. */
  pending(): number {
    return this.account.pending;
  }

  /** Requests waiting for their turn or their retry. */
  get queued(): number {
    let n = 0;
    for (const line of this.lines.values()) n += line.length;
    return n;
  }

  /** Holds `items` and `bytes` (the media upload's media) until `release`; false when past the bounds. */
  hold(items: number, bytes: number): boolean {
    if (!this.account.fits(items, bytes, this.limits)) return false;
    this.account.add(items, bytes);
    return true;
  }

  release(items: number, bytes: number): void {
    this.account.remove(items, bytes);
  }

  /**
   * Counts one item of work that is not a single request (a medium from its ask to its report)
   * as pending until the returned function ends it (once): `settled()` waits for it.
   */
  begin(): () => void {
    this.account.add(1, 0);
    const end = this.ledger.begin();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      end();
      this.release(1, 0);
    };
  }

  /**
   * Buffers the request body `encode` gives for `count` items (run once, here, so an encoding
   * failure is counted as their loss); `done(ok)` runs once they are delivered or lost. A sender
   * of batches only. Never throws.
   */
  enqueue(count: number, encode: () => Uint8Array, done: (ok: boolean, reason?: string) => void): void {
    const { unit } = this.o;
    if (this.round === 'stopped') {
      this.log?.lost(count, 'they came after shutdown');
      done(false);
      return;
    }
    let body: Uint8Array;
    try {
      body = encode();
    } catch (err) {
      this.log?.lost(count, `they could not be serialised (${messageOf(err)})`);
      done(false);
      return;
    }
    // Before packing, the encoded size stands in for the body's: an upper bound under gzip.
    if (!this.account.fits(count, body.byteLength, this.limits)) {
      const { items, bytes } = this.account;
      const { maxBufferItems, maxBufferBytes } = this.limits;
      this.log?.lost(
        count,
        `the export buffer is full (${items} ${unit}, ${bytes} bytes waiting; limits ${maxBufferItems} ${unit}, ${maxBufferBytes} bytes)`,
      );
      done(false);
      return;
    }
    const job = this.newJob(count, body.byteLength, undefined, (end) => done(end.ok, end.ok ? undefined : end.reason));
    this.account.add(count, body.byteLength);
    this.lineOf(job).push(job);
    this.prepare(
      job,
      () => this.o.batches!.pack(body),
      (packed) => {
        this.account.add(0, packed.byteLength - job.bytes);
        job.bytes = packed.byteLength;
        job.body = packed;
      },
      (reason) => {
        this.remove(job);
        const why = `they could not be compressed (${reason})`;
        this.end(job, { ok: false, reason: why, why });
      },
    );
  }

  /** Sends `request`, retrying it as the policy says; resolves with how it ended. Never rejects. */
  send(request: Request): Promise<End> {
    return new Promise((resolve) => {
      const { signal } = request;
      const onAbort = () => this.cancel(job, signal?.reason);
      const job = this.newJob(request.held ?? 0, 0, request, (end) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(end);
      });
      if (this.round === 'stopped') return this.end(job, gaveUp('abandoned at the deadline'));
      if (signal?.aborted) return this.cancel(job, signal.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.lineOf(job).push(job);
      this.pump();
    });
  }

  /** A job not tried yet, counted by the ledger until it ends (then `done` runs). */
  private newJob(items: number, bytes: number, request: Request | undefined, done: (end: End) => void): Job {
    const settle = this.ledger.begin();
    return {
      items,
      bytes,
      request,
      attempts: 0,
      readyAt: 0,
      done: (end) => {
        settle();
        done(end);
      },
    };
  }

  // --- the drain's view (`DeliveryKind`) ---------------------------------------------------

  /** Resolves once everything accepted before the call has ended (at once once stopped), whatever came after. */
  settled(): Promise<void> {
    if (this.round === 'stopped') return Promise.resolve();
    return this.ledger.settled();
  }

  /**
   * The exit flush: everything waiting or handed over from now on gets one more attempt, at once
   * and without the one-probe rule; a failure is given up (counted for `endLastTry`).
   */
  lastTry(): void {
    if (this.round !== 'sending') return;
    this.round = { unsent: 0, inFlight: 0 };
    this.pump();
  }

  /** Ends the last round: what it gave up, and back to retrying. */
  endLastTry(): Leftover {
    const round = this.round;
    if (typeof round !== 'object') return { unsent: 0, inFlight: 0 };
    this.round = 'sending';
    return { ...round };
  }

  /**
   * Stops: what is still waiting or in flight is dropped and every pending `done` runs. Returns
   * the counts (with what a last round gave up); the drain says them, in one line for every kind.
   */
  abandon(): Leftover {
    const given = this.endLastTry();
    const { unsent, inFlight } = this.account.left();
    this.round = 'stopped';
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const job of [...this.lines.values()].flat()) {
      if (!job.request) this.account.remove(job.items, job.bytes);
      this.end(job, gaveUp('abandoned at the deadline'));
    }
    this.lines.clear();
    this.wire.abort(new Error('the drain ran out of time'));
    this.ledger.releaseAll();
    return { unsent: unsent + given.unsent, inFlight: inFlight + given.inFlight, reason: given.reason ?? this.log?.reason };
  }

  /** Says what the outage log holds back (a drain ended; `final` at shutdown and exit). */
  settle(final: boolean): void {
    this.log?.settle(final);
  }

  /**
   * A drain waits until `deadline`: retry waits end at the latest halfway to it, those under way
   * too (a wait scheduled before the drain, or a `Retry-After`, would outlive a server that
   * recovers before the deadline). Returns what ends that.
   */
  drainBy(deadline: number): () => void {
    this.state = { ...this.state, deadlines: [...this.state.deadlines, deadline] };
    const now = Date.now();
    for (const job of [...this.lines.values()].flat()) {
      if (job.readyAt > now) job.readyAt = now + capByDeadlines(job.readyAt - now, this.state.deadlines, now);
    }
    this.pump();
    return () => {
      const deadlines = [...this.state.deadlines];
      const at = deadlines.indexOf(deadline);
      if (at !== -1) deadlines.splice(at, 1);
      this.state = { ...this.state, deadlines };
    };
  }

  // --- the line ------------------------------------------------------------------------------

  /**
   * Starts what may go now. A sender of batches takes its line in order: the first batch waiting
   * for its retry holds back the rest, and during an outage (or while the server refuses) one
   * request probes it while the rest wait. A sender of requests starts every request whose wait
   * is over and whose lane has room; a full lane's line is left at once.
   */
  private pump(): void {
    if (this.round === 'stopped') return;
    const ordered = this.o.batches !== undefined;
    const last = typeof this.round === 'object';
    const now = Date.now();
    let wake = Number.POSITIVE_INFINITY;
    for (const [lane, line] of this.lines) {
      const limit = this.laneLimit(lane);
      for (let i = 0; i < line.length && (limit === Number.POSITIVE_INFINITY || this.wire.busy(lane) < limit); ) {
        const job = line[i]!;
        if (!last && job.readyAt > now) {
          wake = Math.min(wake, job.readyAt);
          if (ordered) break;
          i++;
          continue;
        }
        // Being packed or split: its turn comes when it is ready (the preparations keep the order).
        if (ordered && job.body === undefined) {
          i++;
          continue;
        }
        if (ordered && !last && this.wire.busy() > 0 && (this.state.refusing || (this.log?.active && this.state.failures > 0))) break;
        // `shift` at the head: V8 trims an array's front in place, where `splice` moves the rest.
        if (i === 0) line.shift();
        else line.splice(i, 1);
        const hold = this.state.hold;
        if (ordered && hold && hold.until > now) {
          this.remove(job, false);
          this.drop(job, { next: 'drop', reason: hold.why, why: hold.why });
          continue;
        }
        this.start(job, lane);
      }
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    if (wake < Number.POSITIVE_INFINITY) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.pump();
      }, wake - now);
      // Retries never keep a process alive; whoever waits for them (a flush) holds it open with its deadline.
      if (!this.o.holdsProcess) unref(this.timer);
    }
  }

  /** The line `job` waits in: its lane's (a sender of batches has one). */
  private lineOf(job: Job): Job[] {
    const lane = job.request?.lane ?? '';
    let line = this.lines.get(lane);
    if (!line) this.lines.set(lane, (line = []));
    return line;
  }

  private laneLimit(lane: string): number {
    if (this.o.batches) return this.limits.maxConcurrent;
    return this.o.lanes?.[lane] ?? Number.POSITIVE_INFINITY;
  }

  private start(job: Job, lane: string): void {
    this.account.depart(job.items, job.bytes);
    job.attempts++;
    const { request } = job;
    const attempt = request ? request.send : (signal: AbortSignal) => this.o.batches!.send(job.body!, signal);
    void this.wire.send(attempt, lane).then((tried) => this.answered(job, tried));
  }

  /** The one retry loop: what an attempt came to, read by the policy, and done. */
  private answered(job: Job, tried: Tried | undefined): void {
    this.account.land(job.items);
    // Held items (a medium's) wait again, between attempts or for the next step of their protocol.
    if (job.request) this.account.add(job.items, 0);
    if (job.ended) return;
    if (tried === undefined) {
      this.end(job, { ok: false, reason: 'not sent', why: 'not sent', unsent: true });
      this.pump();
      return;
    }
    let outcome: SendOutcome;
    try {
      outcome = this.read(job, tried);
    } catch (err) {
      outcome = { kind: 'retry', reason: messageOf(err) };
    }
    if (this.round === 'stopped') {
      // abandon() counted it already: its producer hears, the outage log does not.
      job.ended = true;
      job.done(outcome.kind === 'delivered' ? { ok: true, answer: tried.answer } : gaveUp('abandoned at the deadline'));
      return;
    }
    const ordered = this.o.batches !== undefined;
    const now = Date.now();
    // A request of its own backs off by its own failures; a batch by the line's.
    const state = ordered ? this.state : { failures: job.attempts - 1, refusing: false, deadlines: this.state.deadlines };
    const [next, step] = nextStep(outcome, { ...job, maxAttempts: job.request?.maxAttempts }, state, this.limits, {
      now,
      unit: this.o.unit,
      lastRound: typeof this.round === 'object',
    });
    if (ordered) this.state = next;
    switch (step.next) {
      case 'done':
        this.end(job, { ok: true, answer: tried.answer });
        break;
      case 'split':
        this.split(job);
        break;
      case 'drop':
        if (step.failing) this.log?.failed(step.reason, this.retriedFor());
        this.drop(job, step, tried);
        break;
      case 'retry': {
        job.failedSince = step.failedSince;
        // A batch failing while the line already waits waits with it (one wait for all).
        const line = this.lineOf(job);
        const head = ordered ? line[0] : undefined;
        job.readyAt = head && head.readyAt > now ? head.readyAt : now + step.waitMs;
        if (!job.request) this.account.add(job.items, job.bytes);
        if (ordered) line.unshift(job);
        else line.push(job);
        // Back in the line before the outage line counts what is buffered.
        this.log?.failed(step.reason, this.retriedFor());
      }
    }
    this.pump();
  }

  private read(job: Job, tried: Tried): SendOutcome {
    const outcome = tried.answer ? answerOutcome(tried.answer, this.o.keysHint) : failureOutcome(tried.error, tried.reached);
    if (job.request) return job.request.read ? job.request.read(tried, outcome) : outcome;
    return this.o.batches?.read ? this.o.batches.read(tried, outcome, job.items) : outcome;
  }

  private retriedFor(): number {
    return this.o.retriedForMs ?? this.limits.retryBudgetMs;
  }

  /** A job that will never be sent again: lost (or given up, in the last round). */
  private drop(job: Job, step: Extract<Step, { next: 'drop' }>, tried?: Tried): void {
    const round = this.round;
    const failure = { ok: false as const, reason: step.reason, why: step.why, answer: tried?.answer, error: tried?.error };
    if (typeof round === 'object') {
      if (step.unanswered) round.inFlight += job.items;
      else round.unsent += job.items;
      round.reason = step.reason;
      this.end(job, { ...failure, gaveUp: true });
      return;
    }
    this.end(job, failure);
  }

  /** Ends `job`: a batch's delivery or loss goes to the outage log; its producer hears. */
  private end(job: Job, end: End): void {
    if (job.ended) return;
    job.ended = true;
    if (!job.request && this.log) {
      if (end.ok) {
        // Batches still being packed are new ones, not the outage's: they do not keep it open.
        const nothingToRetry = this.log.active && this.wire.busy() === 0 && !this.lineOf(job).some((j) => j.body !== undefined);
        this.log.delivered(job.items, nothingToRetry);
      } else if (!end.gaveUp) this.log.lost(job.items, end.why);
    }
    job.done(end);
  }

  /** A request whose caller aborted it: it ends now if it waits (in flight, its own signal ends it). */
  private cancel(job: Job, reason: unknown): void {
    const line = this.lineOf(job);
    const at = line.indexOf(job);
    if (job.attempts > 0 && at === -1) return;
    if (at !== -1) line.splice(at, 1);
    this.end(job, { ok: false, reason: 'aborted', why: 'aborted', error: reason, unsent: true });
    this.pump();
  }

  /** Takes a waiting job out of the line (and, unless it goes straight on, out of the account). */
  private remove(job: Job, inLine = true): void {
    if (inLine) {
      const line = this.lineOf(job);
      const at = line.indexOf(job);
      if (at !== -1) line.splice(at, 1);
    }
    if (!job.request) this.account.remove(job.items, job.bytes);
  }

  /** A batch refused as too large: split in two (in its place at the front of the line), its producer answered once both halves are. */
  private split(job: Job): void {
    const body = job.body!;
    job.body = undefined;
    this.account.add(job.items, job.bytes);
    this.lineOf(job).unshift(job);
    this.prepare(
      job,
      () => this.o.batches!.split(body),
      (parts) => {
        if (parts.length < 2) {
          this.remove(job);
          const why = 'the server refused them as too large and they could not be split';
          this.drop(job, { next: 'drop', reason: why, why });
          return;
        }
        const done = joined(job.done, parts.length);
        const halves = parts.map((p): Job => {
          this.account.add(p.items, p.body.byteLength);
          // Its attempts and first failure go on in each half (it has not ended: `prepare` checked).
          return { ...job, items: p.items, bytes: p.body.byteLength, body: p.body, readyAt: 0, done };
        });
        this.remove(job, false);
        job.ended = true;
        const line = this.lineOf(job);
        line.splice(line.indexOf(job), 1, ...halves);
      },
      (reason) => {
        this.remove(job);
        const why = `they could not be split (${reason})`;
        this.drop(job, { next: 'drop', reason: why, why });
      },
    );
  }

  /**
   * Runs `work` after every earlier preparation, the job counted as waiting meanwhile, then hands
   * the result to `ready` (or the reason to `failed`) and pumps. A job `abandon` ended meanwhile
   * is left alone.
   */
  private prepare<T>(job: Job, work: () => Promise<T>, ready: (value: T) => void, failed: (reason: string) => void): void {
    const run = async () => {
      let value: T | undefined;
      let error: string | undefined;
      try {
        value = await work();
      } catch (err) {
        error = messageOf(err);
      }
      if (job.ended) return;
      if (error !== undefined) failed(error);
      else ready(value as T);
      this.pump();
    };
    this.preparations = this.preparations.then(run).catch((err) => logger.error(`export queue: ${String(err)}`));
  }
}

function gaveUp(reason: string): End {
  return { ok: false, reason, why: reason, gaveUp: true };
}

function messageOf(err: unknown): string {
  return (err as Error)?.message ?? String(err);
}

/** One producer's answer for a batch split in `parts`: once every part ended, failed if one did (with its reason). */
function joined(done: (end: End) => void, parts: number): (end: End) => void {
  let left = parts;
  let failed: End | undefined;
  return (end) => {
    if (!end.ok) failed ??= end;
    if (--left === 0) done(failed ?? end);
  };
}

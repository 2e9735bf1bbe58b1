/**
 * Scores on their way to `POST /api/public/scores`: batched by `flushAt`/`flushInterval` (a burst
 * made in one tick goes in one request of at most 100), then held and sent by a `DeliveryQueue`,
 * as spans are (backoff and budget, one probe during an outage, permanent errors dropped at once,
 * counted losses, nothing that keeps the process alive). A drain sees it as the `scores` kind.
 * Free of Node built-ins (the browser client uses it with `fetch`).
 */
import { logger } from '../../util/logger.js';
import {
  DEFAULT_DELIVERY_LIMITS,
  DeliveryQueue,
  deliveryLimits,
  type DeliveryLimits,
  type RequestPart,
} from '../../delivery/delivery-queue.js';
import type { DeliveryKind, Leftover } from '../../delivery/drain.js';
import { answerOutcome, failureOutcome, networkReason, type SendOutcome } from '../../delivery/outcome.js';
import type { Post, PostResult } from '../../delivery/post.js';
import type { CreateScoreRequest } from '../api/types.js';
import { summarize } from '../util/describe.js';
import { unrefTimer } from '../util/timers.js';

/** Scores per request to `POST /api/public/scores` (contract 8). */
export const MAX_SCORE_BATCH_SIZE = 100;

/** How a `ScoreQueue` batches and sends. */
export interface ScoreQueueOptions {
  /** Send once this many scores wait (coalesced to the end of the current tick). */
  flushAt: number;
  /** Send whatever waits after this long, in ms. */
  flushIntervalMs: number;
  /** Scores that may wait or be retried; more are dropped with an error log. */
  maxQueueSize: number;
  /** One POST of a JSON body to the scores endpoint (`httpPost` on Node.js, `fetchPost` elsewhere). */
  post: Post;
  /** Where scores go, for the log lines (no credentials). */
  target: string;
  /** Timeout of one request, in ms. */
  timeoutMs: number;
  /** Retry budget, backoff, attempts, requests in flight. */
  limits?: Partial<DeliveryLimits>;
  /** Interval between "still failing" lines of one outage, in ms. */
  reportEveryMs?: number;
}

interface Pending {
  seq: number;
  score: CreateScoreRequest;
  resolve: () => void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A bounded queue of checked scores; every line about a lost score is written by its delivery queue. */
export class ScoreQueue implements DeliveryKind {
  readonly unit = 'scores';
  /** Scores not handed over yet, in order. */
  private waiting: Pending[] = [];
  private seq = 0;
  /** Scores with `seq <= drainUntil` are due: a flush, the timer or `flushAt` asked for them. */
  private drainUntil = 0;
  private drainScheduled = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private droppedWhileFull = 0;
  private readonly delivery: DeliveryQueue;
  /**
   * One controller per request in flight, made with the request: on Cloudflare Workers a signal
   * is bound to the request whose code created it (as in the span exporter).
   */
  private readonly inFlight = new Set<AbortController>();
  /** Whether the server has answered once (a name that stops resolving later is an outage). */
  private reached = false;

  constructor(private readonly options: ScoreQueueOptions) {
    const limits = deliveryLimits(options.limits, { ...DEFAULT_DELIVERY_LIMITS, maxBufferItems: options.maxQueueSize });
    this.delivery = new DeliveryQueue(
      {
        pack: async (body) => body,
        split: async (body) => splitScores(body),
        send: (body, count) => this.send(body, count),
        abortAll: () => {
          for (const controller of this.inFlight) controller.abort(new Error('the drain ran out of time'));
          this.inFlight.clear();
        },
      },
      { unit: 'scores', target: options.target, limits, reportEveryMs: options.reportEveryMs, waiting: () => this.waiting.length },
    );
  }

  /**
   * Stamps `score` with the time it was queued and queues it. Resolves when the server has
   * answered its batch (or at once when it is dropped); never rejects.
   */
  enqueue(score: CreateScoreRequest): Promise<void> {
    if (this.waiting.length + this.delivery.pendingItems >= this.options.maxQueueSize) {
      if (this.droppedWhileFull++ === 0) {
        logger.error(`Obs score queue is full (${this.options.maxQueueSize} scores waiting): dropping new scores until it drains`);
      }
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      this.waiting.push({ seq: ++this.seq, score: { ...score, timestamp: new Date().toISOString() }, resolve });
      if (this.closed || this.seq - this.drainUntil >= this.options.flushAt) this.scheduleDrain();
      else this.armTimer();
    });
  }

  /** Hands every waiting score over and resolves once they are all answered (unbounded: drains bound it). */
  async settled(): Promise<void> {
    this.drainUntil = this.seq;
    this.pump();
    await this.delivery.whenIdle();
  }

  pending(): number {
    return this.waiting.length + this.delivery.pendingItems;
  }

  lastTry(): void {
    this.delivery.lastTry();
    this.drainUntil = this.seq;
    this.pump();
  }

  endLastTry(): Leftover {
    return this.delivery.endLastTry();
  }

  abandon(): Leftover {
    this.clearTimer();
    const unsent = this.waiting.length;
    for (const p of this.waiting.splice(0)) p.resolve();
    const left = this.delivery.abandon();
    return { ...left, unsent: left.unsent + unsent };
  }

  settle(final: boolean): void {
    this.delivery.settle(final);
  }

  drainBy(deadline: number): () => void {
    return this.delivery.drainBy(deadline);
  }

  /** Stops the timer: scores queued later are sent at the end of their tick. */
  close(): void {
    this.closed = true;
    this.clearTimer();
  }

  /** Coalesces a burst of synchronous `enqueue` calls into one drain (250 scores: 3 requests). */
  private scheduleDrain(): void {
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    queueMicrotask(() => {
      this.drainScheduled = false;
      this.drainUntil = this.seq;
      this.pump();
    });
  }

  private armTimer(): void {
    if (this.timer !== undefined || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.drainUntil = this.seq;
      this.pump();
    }, this.options.flushIntervalMs);
    // An idle score queue must never keep a process alive.
    unrefTimer(this.timer);
  }

  private clearTimer(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Hands the due scores to the delivery queue in batches of at most 100. */
  private pump(): void {
    while (this.waiting.length > 0 && this.waiting[0]!.seq <= this.drainUntil) {
      const batch = this.waiting.splice(0, MAX_SCORE_BATCH_SIZE);
      this.delivery.enqueue(
        batch.length,
        () => encoder.encode(JSON.stringify(batch.map((p) => p.score))),
        () => {
          for (const p of batch) p.resolve();
          this.sayDroppedWhileFull();
        },
      );
    }
    this.sayDroppedWhileFull();
    if (this.waiting.length === 0) this.clearTimer();
    else this.armTimer();
  }

  /** Once there is room again: how many scores the full queue turned away. */
  private sayDroppedWhileFull(): void {
    if (this.droppedWhileFull > 0 && this.waiting.length + this.delivery.pendingItems < this.options.maxQueueSize) {
      logger.error(`Obs dropped ${this.droppedWhileFull} scores because the score queue was full`);
      this.droppedWhileFull = 0;
    }
  }

  /** One POST of a batch: a 207 says which scores were rejected (one line, not retried). */
  private async send(body: Uint8Array, count: number): Promise<SendOutcome> {
    let res: PostResult;
    const controller = new AbortController();
    this.inFlight.add(controller);
    try {
      res = await this.options.post(body, this.options.timeoutMs, controller.signal);
    } catch (err) {
      logger.debug(`sent ${count} scores: ${networkReason(err)}`);
      return failureOutcome(err, this.reached);
    } finally {
      this.inFlight.delete(controller);
    }
    this.reached = true;
    const outcome = answerOutcome(res, 'the server refused the keys: check OBS_PUBLIC_KEY/OBS_SECRET_KEY');
    if (outcome.kind !== 'delivered') {
      logger.debug(`sent ${count} scores: HTTP ${res.status}`);
      return outcome;
    }
    const partial = partialResult(res);
    logger.debug(`sent ${count} scores: ${partial ? `HTTP 207, ${count - partial.rejected} of ${count} accepted` : 'accepted'}`);
    if (partial && partial.rejected > 0) {
      logger.error(`Obs rejected ${partial.rejected} of ${count} scores in batch: ${summarize(partial.errors, 2000)}`);
    }
    return outcome;
  }
}

/** The `{ rejected, errors }` of a 207 answer, if it is one. */
function partialResult(res: PostResult): { rejected: number; errors?: unknown } | undefined {
  if (res.status !== 207 || res.text === '') return undefined;
  try {
    const body = JSON.parse(res.text) as { rejected?: unknown; errors?: unknown };
    return typeof body?.rejected === 'number' ? { rejected: body.rejected, errors: body.errors } : undefined;
  } catch {
    return undefined;
  }
}

/** A JSON array of scores refused as too large (413), in two halves. */
function splitScores(body: Uint8Array): RequestPart[] {
  const scores = JSON.parse(decoder.decode(body)) as unknown[];
  if (scores.length < 2) return [{ body, items: scores.length }];
  const half = Math.ceil(scores.length / 2);
  return [scores.slice(0, half), scores.slice(half)].map((part) => ({ body: encoder.encode(JSON.stringify(part)), items: part.length }));
}

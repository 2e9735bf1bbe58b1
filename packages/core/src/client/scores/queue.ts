import { logger } from '../../util/logger.js';
import type { CreateScoreRequest, CreateScoresResponse } from '../api/types.js';
import { OutageLog } from '../../util/outage-log.js';
import { backoffDelay, isRetryableStatus, sleep } from '../../util/retry.js';
import { ObsApiError, ObsApiTimeoutError } from '../api/core/errors.js';
import { describeError, summarize } from '../util/describe.js';
import { unrefTimer } from '../util/timers.js';

/** Scores per request to `POST /api/public/scores` (contract 8). */
export const MAX_SCORE_BATCH_SIZE = 100;

/** How a `ScoreQueue` batches and sends. */
export interface ScoreQueueOptions {
  /** Send once this many scores wait (coalesced to the end of the current tick). */
  flushAt: number;
  /** Send whatever waits after this long, in ms. */
  flushIntervalMs: number;
  /** Scores that may wait; more are dropped with an error log. */
  maxQueueSize: number;
  /** Batches in flight at once. */
  maxConcurrency?: number;
  /** Sends one batch once; a rejection the server may answer differently later is retried here. */
  send: (batch: CreateScoreRequest[]) => Promise<CreateScoresResponse>;
  /** Where scores go, for the outage lines. */
  target?: string;
  /** How long a failed batch is retried, in ms; default 60 000. */
  retryBudgetMs?: number;
  /** First backoff wait in ms; default 200 (doubled, jittered, at most 5 s). */
  backoffMs?: number;
}

/** Whether a failed send is worth another attempt: no answer, a timeout, 408, 429 or 5xx. */
function isRetryableFailure(err: unknown): boolean {
  if (err instanceof ObsApiTimeoutError) return true;
  if (err instanceof ObsApiError) return err.statusCode === undefined || isRetryableStatus(err.statusCode);
  return true;
}

interface Pending {
  seq: number;
  score: CreateScoreRequest;
  answered: Promise<void>;
  resolve: () => void;
}

function isPartialResult(res: unknown): res is { rejected: number; errors?: unknown } {
  return typeof res === 'object' && res !== null && typeof (res as { rejected?: unknown }).rejected === 'number';
}

/**
 * A bounded queue of checked scores, sent in batches of at most 100. Every log line about a
 * lost score is written here, so each loss is reported exactly once. Free of Node built-ins.
 */
export class ScoreQueue {
  private readonly queue: Pending[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly maxConcurrency: number;
  private seq = 0;
  /** Scores with `seq <= drainUntil` are due: a flush, the timer or `flushAt` asked for them. */
  private drainUntil = 0;
  private drainScheduled = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private droppedWhileFull = 0;

  private readonly outage: OutageLog;
  private retrying = 0;

  constructor(private readonly options: ScoreQueueOptions) {
    this.maxConcurrency = Math.max(1, options.maxConcurrency ?? 4);
    this.outage = new OutageLog(
      options.target ?? 'the obs server',
      { buffered: () => this.queue.length + this.retrying },
      undefined,
      'scores',
    );
  }

  /**
   * Stamps `score` with the time it was queued and queues it. Resolves when the server has
   * answered its batch (or at once when it is dropped); never rejects.
   */
  enqueue(score: CreateScoreRequest): Promise<void> {
    if (this.queue.length >= this.options.maxQueueSize) {
      if (this.droppedWhileFull++ === 0) {
        logger.error(`Obs score queue is full (${this.options.maxQueueSize} scores waiting): dropping new scores until it drains`);
      }
      return Promise.resolve();
    }
    let resolve!: () => void;
    const answered = new Promise<void>((r) => (resolve = r));
    this.queue.push({ seq: ++this.seq, score: { ...score, timestamp: new Date().toISOString() }, answered, resolve });
    if (this.closed || this.seq - this.drainUntil >= this.options.flushAt) this.scheduleDrain();
    else this.armTimer();
    return answered;
  }

  /** Sends everything queued; resolves when every score queued so far has been answered. */
  async flush(): Promise<void> {
    this.drainUntil = this.seq;
    this.pump();
    await Promise.all([...this.queue.map((p) => p.answered), ...this.inFlight]);
  }

  /** Flushes and stops the timer; scores queued later are sent at the end of their tick. */
  async shutdown(): Promise<void> {
    this.closed = true;
    this.clearTimer();
    await this.flush();
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

  private pump(): void {
    while (this.inFlight.size < this.maxConcurrency && this.queue.length > 0 && this.queue[0]!.seq <= this.drainUntil) {
      const batch = this.queue.splice(0, MAX_SCORE_BATCH_SIZE);
      const sending = this.send(batch).finally(() => {
        this.inFlight.delete(sending);
        this.pump();
      });
      this.inFlight.add(sending);
    }
    if (this.droppedWhileFull > 0 && this.queue.length < this.options.maxQueueSize) {
      logger.error(`Obs dropped ${this.droppedWhileFull} scores because the score queue was full`);
      this.droppedWhileFull = 0;
    }
    if (this.queue.length === 0) this.clearTimer();
    else if (this.queue[0]!.seq > this.drainUntil) this.armTimer();
  }

  private async send(batch: Pending[]): Promise<void> {
    const scores = batch.map((p) => p.score);
    const budgetMs = this.options.retryBudgetMs ?? 60_000;
    let failedSince: number | undefined;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const res = await this.options.send(scores);
          logger.debug(
            `sent ${scores.length} scores: ${isPartialResult(res) ? `HTTP 207, ${scores.length - res.rejected} of ${scores.length} accepted` : 'accepted'}`,
          );
          if (isPartialResult(res) && res.rejected > 0) {
            logger.error(`Obs rejected ${res.rejected} of ${scores.length} scores in batch: ${summarize(res.errors, 2000)}`);
          }
          this.outage.delivered(scores.length, this.queue.length === 0 && this.retrying === 0);
          return;
        } catch (err) {
          logger.debug(`sent ${scores.length} scores: ${describeError(err)}`);
          const now = Date.now();
          // No budget (the browser client): the transport's retries were all there is.
          if (!isRetryableFailure(err) || budgetMs === 0) {
            const body = (err as { body?: unknown } | undefined)?.body;
            this.outage.lost(scores.length, `${describeError(err)}${body === undefined ? '' : ` ${summarize(body)}`}`);
            return;
          }
          this.outage.failed(describeError(err), budgetMs);
          failedSince ??= now;
          if (now - failedSince >= budgetMs) {
            this.outage.lost(scores.length, `retried for ${Math.round(budgetMs / 1000)} s (${describeError(err)})`);
            return;
          }
          this.retrying += scores.length;
          try {
            await sleep(
              Math.min(
                backoffDelay(attempt, { initialDelayMs: this.options.backoffMs ?? 200, maxDelayMs: 5_000 }),
                failedSince + budgetMs - now,
              ),
            );
          } finally {
            this.retrying -= scores.length;
          }
        }
      }
    } finally {
      for (const p of batch) p.resolve();
    }
  }
}

/**
 * Scores on their way to `POST /api/public/scores`: batched by `flushAt`/`flushInterval` (a burst
 * made in one tick goes in one request of at most 100), then held and sent by a `Sender` of
 * batches, as spans are (backoff and budget, one probe during an outage, permanent errors dropped
 * at once, counted losses, nothing that keeps the process alive). A drain sees it as the `scores`
 * kind. Free of Node built-ins (the browser client uses it with `fetch`).
 */
import { logger } from '../../util/logger.js';
import { unref } from '../../util/unref.js';
import type { DeliveryKind, Leftover } from '../../delivery/drain.js';
import { networkReason, type SendOutcome } from '../../delivery/outcome.js';
import type { Post, PostResult } from '../../delivery/post.js';
import {
  DEFAULT_DELIVERY_LIMITS,
  Sender,
  deliveryLimits,
  type DeliveryLimits,
  type RequestPart,
  type Tried,
} from '../../delivery/sender.js';
import type { CreateScoreRequest } from '../api/types.js';
import { summarize } from '../util/describe.js';

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
  score: CreateScoreRequest;
  resolve: () => void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A bounded queue of checked scores; every line about a lost score is written by its sender's outage log. */
export class ScoreQueue implements DeliveryKind {
  readonly unit = 'scores';
  private readonly sender: Sender;
  /**
   * Scores not handed over yet, in order. Every hand-over takes them all (a flush, the timer,
   * `flushAt`), so they are also the scores queued since the last one.
   */
  private waiting: Pending[] = [];
  /** When the waiting scores are handed over: at the end of this tick, or when the interval's timer ends. */
  private next: 'tick' | ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private droppedWhileFull = 0;

  constructor(private readonly options: ScoreQueueOptions) {
    this.sender = new Sender({
      unit: 'scores',
      target: options.target,
      keysHint: 'the server refused the keys: check OBS_PUBLIC_KEY/OBS_SECRET_KEY',
      limits: deliveryLimits(options.limits, { ...DEFAULT_DELIVERY_LIMITS, maxBufferItems: options.maxQueueSize }),
      reportEveryMs: options.reportEveryMs,
      waiting: () => this.waiting.length,
      batches: {
        pack: async (body) => body,
        split: async (body) => splitScores(body),
        send: (body, signal) => options.post(body, options.timeoutMs, signal),
        read: (tried, outcome, count) => readAnswer(tried, outcome, count),
      },
    });
  }

  /**
   * Stamps `score` with the time it was queued and queues it. Resolves when the server has
   * answered its batch (or at once when it is dropped); never rejects.
   */
  enqueue(score: CreateScoreRequest): Promise<void> {
    if (this.waiting.length + this.sender.pending() >= this.options.maxQueueSize) {
      if (this.droppedWhileFull++ === 0) {
        logger.error(`Obs score queue is full (${this.options.maxQueueSize} scores waiting): dropping new scores until it drains`);
      }
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      this.waiting.push({ score: { ...score, timestamp: new Date().toISOString() }, resolve });
      if (this.closed || this.waiting.length >= this.options.flushAt) this.handOverAtTickEnd();
      else this.armTimer();
    });
  }

  /** Hands every waiting score over and resolves once they are all answered, whatever came after (unbounded: drains bound it). */
  async settled(): Promise<void> {
    this.handOver();
    await this.sender.settled();
  }

  pending(): number {
    return this.waiting.length + this.sender.pending();
  }

  lastTry(): void {
    this.sender.lastTry();
    this.handOver();
  }

  endLastTry(): Leftover {
    return this.sender.endLastTry();
  }

  abandon(): Leftover {
    this.clearTimer();
    const unsent = this.waiting.length;
    for (const p of this.waiting.splice(0)) p.resolve();
    const left = this.sender.abandon();
    return { ...left, unsent: left.unsent + unsent };
  }

  settle(final: boolean): void {
    this.sender.settle(final);
  }

  drainBy(deadline: number): () => void {
    return this.sender.drainBy(deadline);
  }

  /** Stops the timer: scores queued later are sent at the end of their tick. */
  close(): void {
    this.closed = true;
    this.clearTimer();
  }

  /** Coalesces a burst of synchronous `enqueue` calls into one hand-over (250 scores: 3 requests). */
  private handOverAtTickEnd(): void {
    if (this.next === 'tick') return;
    this.clearTimer();
    this.next = 'tick';
    queueMicrotask(() => {
      this.next = undefined;
      this.handOver();
    });
  }

  private armTimer(): void {
    if (this.next !== undefined || this.closed) return;
    // An idle score queue must never keep a process alive.
    this.next = unref(
      setTimeout(() => {
        this.next = undefined;
        this.handOver();
      }, this.options.flushIntervalMs),
    );
  }

  private clearTimer(): void {
    if (this.next === undefined || this.next === 'tick') return;
    clearTimeout(this.next);
    this.next = undefined;
  }

  /** Hands every waiting score to the sender, in batches of at most 100. */
  private handOver(): void {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_SCORE_BATCH_SIZE);
      this.sender.enqueue(
        batch.length,
        () => encoder.encode(JSON.stringify(batch.map((p) => p.score))),
        () => {
          for (const p of batch) p.resolve();
          this.sayDroppedWhileFull();
        },
      );
    }
    this.sayDroppedWhileFull();
    this.clearTimer();
  }

  /** Once there is room again: how many scores the full queue turned away. */
  private sayDroppedWhileFull(): void {
    if (this.droppedWhileFull > 0 && this.waiting.length + this.sender.pending() < this.options.maxQueueSize) {
      logger.error(`Obs dropped ${this.droppedWhileFull} scores because the score queue was full`);
      this.droppedWhileFull = 0;
    }
  }
}

/** One answer to a batch, as the debug line says it: a 207 says which scores were rejected (one line, not retried). */
function readAnswer(tried: Tried, outcome: SendOutcome, count: number): SendOutcome {
  const res = tried.answer;
  if (!res || outcome.kind !== 'delivered') {
    logger.debug(`sent ${count} scores: ${res ? `HTTP ${res.status}` : networkReason(tried.error)}`);
    return outcome;
  }
  const partial = partialResult(res);
  logger.debug(`sent ${count} scores: ${partial ? `HTTP 207, ${count - partial.rejected} of ${count} accepted` : 'accepted'}`);
  if (partial && partial.rejected > 0) {
    logger.error(`Obs rejected ${partial.rejected} of ${count} scores in batch: ${summarize(partial.errors, 2000)}`);
  }
  return outcome;
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

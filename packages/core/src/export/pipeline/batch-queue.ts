/**
 * Ended spans waiting for export: batches of `flushAt`, a partial batch after `flushInterval`,
 * each span at once in `immediate` mode, bounded by `maxQueueSize`. Serialising happens after the
 * user's `span.end()`, never inside it: with an exporter that takes encoded batches
 * (`EncodedExporter`, obs's own) ended spans are encoded into the bytes of their batch in a turn
 * of the event loop of their own, once `ENCODE_EVERY` have ended (or at the flush interval), so
 * no span object outlives its request by more than a few requests; a span the processor's steps
 * say is not ready (its request still waits for `identify`) stays an object until it is, and a
 * span they hold (its media's asks, bounded) waits aside and comes back when they are answered.
 * Another exporter gets span objects in batches, as OpenTelemetry's `BatchSpanProcessor` hands
 * them over.
 */
import type { ReadableSpan, SpanExporter } from '../../tracing/sdk-types.js';
import { logger } from '../../util/logger.js';
import { isNodeRuntime } from '../../util/runtime.js';
import { type EncodedExporter, isEncodedExporter, type SpanBatchEncoder } from './exporter-capabilities.js';
import { unref } from '../../util/unref.js';

export interface BatchQueueOptions {
  immediate: boolean;
  flushAt: number;
  flushIntervalMs: number;
  maxQueueSize: number;
}

/** What the processor does to an ended span on its way out; the queue only buffers and schedules. */
export interface ExportSteps {
  /** Whether the span may be serialised now (false while its request's `identify` is pending). */
  ready(span: ReadableSpan): boolean;
  /**
   * Work the span waits for before it is serialised (its media's asks), or undefined when there is
   * none; it settles, never rejects, within a bound of its own. Asked again when it settled.
   */
  hold?(span: ReadableSpan): Promise<void> | undefined;
  /** The span as it is exported (late attributes applied, parent reshaped); may be a view. */
  prepare(span: ReadableSpan): ReadableSpan;
}

/**
 * With obs's own exporter, how many ended spans call for a turn that encodes them. Not one turn
 * per request: that is a `setImmediate` per request, and on Node.js 22 `AsyncLocalStorage` runs
 * its async hooks on each. A few dozen span objects outlive their request by a few requests only,
 * and still die young.
 */
export const ENCODE_EVERY = 32;

export class BatchQueue {
  /** Ended spans not encoded or handed over yet. */
  private spans: ReadableSpan[] = [];
  /** Spans waiting aside for what `steps.hold` gave them. */
  private readonly held = new Map<ReadableSpan, Promise<void>>();
  /** The exporter when it takes batches encoded span by span. */
  private readonly encoder?: EncodedExporter;
  /** The batch being encoded (with `encoder`). */
  private batch?: SpanBatchEncoder;
  private readonly pending = new Set<Promise<void>>();
  /** Spans handed to the exporter whose batch it has not answered yet. */
  private unanswered = 0;
  private timer?: ReturnType<typeof setTimeout>;
  private droppedLogged = false;
  private turnScheduled = false;
  /** Spans pushed since the last turn or drain. */
  private sinceTurn = 0;
  /** How many pushed spans call for a turn. */
  private readonly turnEvery: number;

  constructor(
    private readonly exporter: SpanExporter,
    readonly options: BatchQueueOptions,
    private readonly steps: ExportSteps,
  ) {
    if (isEncodedExporter(exporter)) this.encoder = exporter;
    this.turnEvery = options.immediate ? 1 : this.encoder ? Math.min(ENCODE_EVERY, options.flushAt) : options.flushAt;
  }

  /** Spans waiting for export (as objects or encoded). */
  get length(): number {
    return this.spans.length + this.held.size + (this.batch?.count ?? 0);
  }

  /** Spans handed to the exporter and not answered yet. */
  get handedOver(): number {
    return this.unanswered;
  }

  /** Whether there is room for one more span (logs once per batch handed over when there is not). */
  hasRoom(): boolean {
    if (this.length < this.options.maxQueueSize) return true;
    if (!this.droppedLogged) logger.error(`span queue full (${this.options.maxQueueSize}); dropping spans until the server catches up`);
    this.droppedLogged = true;
    return false;
  }

  push(span: ReadableSpan): void {
    this.spans.push(span);
    if (++this.sinceTurn >= this.turnEvery) this.scheduleTurn();
    else this.timer ??= this.startTimer();
  }

  /**
   * Resolves when every span pushed so far has been handed over (held ones once their hold
   * settled) and answered. Spans pushed later are not waited for: under steady traffic the queue
   * is never empty, and a flush must not wait for a quiet moment.
   */
  async flush(): Promise<void> {
    this.drain();
    const before = new Set(this.pending);
    const answered = [...before];
    const held = [...this.held.values()];
    if (held.length > 0) {
      await Promise.allSettled(held);
      this.drain();
      // The batches made meanwhile hold the spans that waited for their hold (and a few newer ones).
      for (const p of this.pending) if (!before.has(p)) answered.push(p);
    }
    await Promise.allSettled(answered);
  }

  /**
   * Hands every waiting span to the exporter now (identities still pending are not waited for);
   * held spans stay aside unless `release`, which hands them over as they are (a drain past its
   * deadline: their media gets the failure marker).
   */
  drain(release = false): void {
    this.stopTimer();
    this.sinceTurn = 0;
    if (release && this.held.size > 0) {
      this.spans.push(...this.held.keys());
      this.held.clear();
    }
    if (this.encoder) {
      this.encodeEnded(true, release);
      this.handOverEncoded();
    } else {
      const spans = release ? this.spans : this.spans.filter((span) => !this.holdBack(span));
      this.spans = [];
      while (spans.length > 0) this.exportBatch(spans.splice(0, this.options.flushAt));
    }
    this.droppedLogged = false;
  }

  /** The turn after enough spans ended: encodes them (with `encoder`) or drains a full batch. */
  private turn(): void {
    this.sinceTurn = 0;
    if (!this.encoder) {
      this.drain();
      return;
    }
    this.encodeEnded(this.options.immediate);
    if (this.options.immediate) this.handOverEncoded();
    else if (this.length > 0) this.timer ??= this.startTimer();
  }

  /**
   * Encodes the ended spans into the batch, handing over each full one; spans whose request
   * identity is pending wait, unless `all`; spans the steps hold wait aside, unless `release`.
   */
  private encodeEnded(all: boolean, release = false): void {
    const spans = this.spans;
    if (spans.length === 0) return;
    this.spans = [];
    let waiting: ReadableSpan[] | undefined;
    for (let i = 0; i < spans.length; i++) {
      const span = spans[i]!;
      if (!all && !this.steps.ready(span)) {
        (waiting ??= []).push(span);
        continue;
      }
      // Held once its identity is known: a span waiting for identify is not scanned again each turn.
      if (!release && this.holdBack(span)) continue;
      const batch = (this.batch ??= this.encoder!.startBatch());
      try {
        batch.add(this.steps.prepare(span));
      } catch (err) {
        logger.error(`span "${span.name}" could not be serialised and is dropped: ${String(err)}`);
      }
      if (batch.count >= this.options.flushAt) this.handOverEncoded();
    }
    if (waiting) this.spans = waiting.concat(this.spans);
  }

  /** Puts the span aside when the steps hold it; it comes back, with a turn, when its hold settles. */
  private holdBack(span: ReadableSpan): boolean {
    const wait = this.steps.hold?.(span);
    if (!wait) return false;
    this.held.set(span, wait);
    void wait.then(() => {
      // Released by a drain past its deadline meanwhile: handed over already.
      if (!this.held.delete(span)) return;
      this.spans.push(span);
      this.scheduleTurn();
    });
    return true;
  }

  private handOverEncoded(): void {
    const batch = this.batch;
    if (!batch || batch.count === 0) return;
    this.batch = undefined;
    if (this.spans.length === 0) this.stopTimer();
    this.droppedLogged = false;
    const settle = this.track(batch.count);
    try {
      // Failures are reported by the exporter (one line per outage).
      this.encoder!.exportEncoded(batch, settle);
    } catch (err) {
      logger.error(`exporter threw: ${String(err)}`);
      settle();
    }
  }

  private exportBatch(spans: ReadableSpan[]): void {
    const settle = this.track(spans.length);
    try {
      // Failures are reported by the exporter (ObsOtlpExporter: one line per outage).
      this.exporter.export(
        spans.map((span) => this.steps.prepare(span)),
        () => settle(),
      );
    } catch (err) {
      logger.error(`exporter threw: ${String(err)}`);
      settle();
    }
  }

  /** A promise `flush` waits for, and the function that settles it (once) for a batch of `count` spans. */
  private track(count: number): () => void {
    // No closure here may see the spans: the callback lives until the batch is delivered, and an
    // exporter that holds encoded bytes lets the span objects go before that (during an outage).
    let resolve!: () => void;
    const p = new Promise<void>((r) => (resolve = r));
    this.pending.add(p);
    this.unanswered += count;
    let settled = false;
    return () => {
      if (settled) return;
      settled = true;
      this.unanswered -= count;
      this.pending.delete(p);
      resolve();
    };
  }

  private startTimer(): ReturnType<typeof setTimeout> {
    // A pending partial batch must never keep a process alive; shutdown hooks flush it.
    return unref(
      setTimeout(() => {
        this.timer = undefined;
        this.drain();
      }, this.options.flushIntervalMs),
    );
  }

  private stopTimer(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  private scheduleTurn(): void {
    if (this.turnScheduled) return;
    this.turnScheduled = true;
    nextTurn(() => {
      this.turnScheduled = false;
      this.turn();
    });
  }
}

/**
 * Runs `fn` in the next turn of the event loop: `setImmediate` on Node.js; a zero timer elsewhere
 * (edge runtimes, where `setImmediate` may exist and throw when called). Read from `globalThis`,
 * not named: webpack's Edge build warns about every free `setImmediate` it finds.
 */
const immediate = (globalThis as { setImmediate?: (fn: () => void) => unknown }).setImmediate;
const nextTurn: (fn: () => void) => void =
  isNodeRuntime() && typeof immediate === 'function' ? (fn) => immediate(fn) : (fn) => setTimeout(fn, 0);

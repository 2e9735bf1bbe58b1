/**
 * Ended spans waiting for export: batches of `flushAt`, a partial batch after `flushInterval`,
 * each span at once in `immediate` mode, bounded by `maxQueueSize`. Serialising happens in a
 * drain scheduled after the user's `span.end()`, never inside it.
 */
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { logger } from '../logger.js';
import { shapeForExport } from './foreign-spans.js';
import { applyRequestIdentity } from './late-identity.js';

export interface BatchQueueOptions {
  immediate: boolean;
  flushAt: number;
  flushIntervalMs: number;
  maxQueueSize: number;
}

export class BatchQueue {
  private queue: ReadableSpan[] = [];
  private readonly pending = new Set<Promise<void>>();
  private timer?: ReturnType<typeof setTimeout>;
  private droppedLogged = false;
  private drainScheduled = false;

  constructor(
    private readonly exporter: SpanExporter,
    readonly options: BatchQueueOptions,
  ) {}

  /** Spans waiting for the next drain. */
  get length(): number {
    return this.queue.length;
  }

  /** Whether there is room for one more span (logs once per drain when there is not). */
  hasRoom(): boolean {
    if (this.queue.length < this.options.maxQueueSize) return true;
    if (!this.droppedLogged) logger.error(`span queue full (${this.options.maxQueueSize}); dropping spans until the server catches up`);
    this.droppedLogged = true;
    return false;
  }

  push(span: ReadableSpan): void {
    this.queue.push(span);
    if (this.options.immediate || this.queue.length >= this.options.flushAt) this.scheduleDrain();
    else this.timer ??= this.startTimer();
  }

  /** Resolves when every span handed over so far has been answered by the exporter. */
  async flush(): Promise<void> {
    this.drain();
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Hands every waiting span to the exporter now. */
  drain(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.flushAt);
      // Spans that ended while the request's async identify was pending get it now.
      for (const span of batch) applyRequestIdentity(span);
      this.exportBatch(batch);
    }
    this.droppedLogged = false;
  }

  private startTimer(): ReturnType<typeof setTimeout> {
    const t = setTimeout(() => {
      this.timer = undefined;
      this.drain();
    }, this.options.flushIntervalMs);
    // A pending partial batch must never keep a process alive; shutdown hooks flush it.
    (t as { unref?: () => void }).unref?.();
    return t;
  }

  private scheduleDrain(): void {
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    const run = () => {
      this.drainScheduled = false;
      this.drain();
    };
    if (typeof setImmediate === 'function') setImmediate(run);
    else setTimeout(run, 0);
  }

  private exportBatch(spans: ReadableSpan[]): void {
    // No closure here may see `spans`: the callback lives until the batch is delivered, and an
    // exporter that holds encoded bytes lets the span objects go before that (during an outage).
    let settle!: () => void;
    const p = new Promise<void>((resolve) => (settle = resolve));
    this.pending.add(p);
    void p.then(() => this.pending.delete(p));
    try {
      // Failures are reported by the exporter (ObsOtlpExporter: one line per outage).
      this.exporter.export(spans.map(shapeForExport), () => settle());
    } catch (err) {
      logger.error(`exporter threw: ${String(err)}`);
      settle();
    }
  }
}

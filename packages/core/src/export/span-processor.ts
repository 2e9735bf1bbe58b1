/**
 * `ObsSpanProcessor`: the OpenTelemetry span processor that sends obs spans to an obs server. It
 * composes four parts, as OpenTelemetry draws them: the enricher (attributes at start and end),
 * the export gate (filter, mask, cap), the batch queue, and the exporter (OTLP encoding and a
 * transport with its retry buffer).
 */
import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ObsConnectionOptions } from '../config.js';
import { readEnv } from '../env.js';
import { logger } from '../logger.js';
import { numberOption, secondsToTimerMs } from '../numeric-option.js';
import { INSPECT_CUSTOM, inspectSummary } from '../secret-inspect.js';
import { BatchQueue } from './batch-queue.js';
import { exporterFromOptions, envNumber } from './exporter-from-options.js';
import { ExportGate } from './export-gate.js';
import type { FrameworkSpansMode } from './foreign-spans.js';
import type { MaskFunction } from './mask.js';
import { ObsOtlpExporter } from './otlp-exporter.js';
import { SpanEnricher } from './span-enricher.js';
import { DEFAULT_MAX_VALUE_CHARS } from './value-cap.js';

/** Options of `ObsSpanProcessor` (and of `initObs`). */
export interface ObsSpanProcessorOptions extends ObsConnectionOptions {
  /** `gzip` (default on Node.js) or `none`; see wire contract 1 for the env fallbacks. */
  compression?: 'gzip' | 'none' | string;
  /** Headers that replace the defaults whatever the case of their names. */
  additionalHeaders?: Record<string, string>;
  /** `batched` (default) or `immediate` (export each span as it ends; for short-lived functions). */
  exportMode?: 'batched' | 'immediate';
  /** Spans per export batch; default `OBS_FLUSH_AT` or 512. */
  flushAt?: number;
  /** Seconds between exports of a partial batch; default `OBS_FLUSH_INTERVAL` or 1. */
  flushInterval?: number;
  /** Export request timeout in seconds; default `OBS_TIMEOUT` or 10. */
  timeout?: number;
  /** Rewrites every input, output and metadata attribute before export. */
  mask?: MaskFunction;
  /** Which spans to export; default `isDefaultExportSpan`. */
  shouldExportSpan?: (params: { otelSpan: ReadableSpan }) => boolean;
  /** `obs.environment` on every span; default `OBS_TRACING_ENVIRONMENT`. */
  environment?: string;
  /** `obs.release` on every span; default `OBS_RELEASE`. */
  release?: string;
  /** A custom exporter instead of OTLP/HTTP to the obs server. */
  exporter?: SpanExporter;
  /** Most spans held while waiting for export; past it spans are dropped with an error log. Default 10 000. */
  maxQueueSize?: number;
  /** Base of the exponential backoff between export retries, in milliseconds; default 200. */
  backoffMs?: number;
  /**
   * Seconds a failed batch is retried (backoff with jitter, `Retry-After` honoured) before its
   * spans are dropped and counted; default 60, so outages up to ~30 s lose nothing.
   */
  retryBudget?: number;
  /** Most bytes of request bodies (compressed as sent) held for retry; past it new batches are dropped and counted. Default 64 MiB. */
  maxBufferBytes?: number;
  /** Export requests in flight at once; default 4 (one probe at a time during an outage). */
  maxConcurrentExports?: number;
  /** Longest input, output or metadata value in characters; longer ones are cut with a marker. Default 1 000 000. */
  maxValueChars?: number;
  /** Seconds `shutdown()` and SIGTERM/SIGINT wait for delivery before giving up (logged); default 15. */
  shutdownTimeout?: number;
  /** Seconds between "still failing" log lines of one outage; default 30. */
  outageReportInterval?: number;
  /**
   * Spans of framework and APM instrumentations (OpenTelemetry http/express/nest/fastify, Sentry,
   * Next.js, `@vercel/otel`): `skip` (default) leaves them out and hangs obs spans on their
   * nearest exported ancestor; `export` sends them too, still never as parents of obs spans
   * (obs spans link to them). Either way the request root is the root of its obs trace.
   */
  frameworkSpans?: FrameworkSpansMode;
}

/**
 * An OpenTelemetry `SpanProcessor` that sends obs spans to an obs server. At span start it
 * copies the propagated trace attributes (user, session, tags, metadata, ...) onto the span;
 * at span end it filters, masks and queues it. `forceFlush()` resolves once everything
 * accepted so far is answered by the server.
 */
export class ObsSpanProcessor implements SpanProcessor {
  private readonly exporter?: SpanExporter;
  private readonly enricher: SpanEnricher;
  private readonly gate: ExportGate;
  private readonly batches?: BatchQueue;
  /** How long `shutdown()` and the signal hooks wait for delivery, in ms. */
  readonly shutdownTimeoutMs: number;
  private stopped = false;

  constructor(options: ObsSpanProcessorOptions = {}) {
    const frameworkSpans: FrameworkSpansMode = options.frameworkSpans === 'export' ? 'export' : 'skip';
    this.enricher = new SpanEnricher(
      options.environment ?? readEnv('OBS_TRACING_ENVIRONMENT'),
      options.release ?? readEnv('OBS_RELEASE'),
      frameworkSpans,
    );
    this.gate = new ExportGate(
      options.shouldExportSpan,
      frameworkSpans,
      options.mask,
      numberOption('maxValueChars', options.maxValueChars, DEFAULT_MAX_VALUE_CHARS, { integer: true }),
    );
    this.shutdownTimeoutMs = secondsToTimerMs(numberOption('shutdownTimeout', options.shutdownTimeout, 15, { allowZero: true }));
    const batching = {
      immediate: options.exportMode === 'immediate',
      flushAt: numberOption('flushAt', options.flushAt ?? envNumber('OBS_FLUSH_AT'), 512, { integer: true }),
      flushIntervalMs: secondsToTimerMs(numberOption('flushInterval', options.flushInterval ?? envNumber('OBS_FLUSH_INTERVAL'), 1)),
      maxQueueSize: numberOption('maxQueueSize', options.maxQueueSize, 10_000, { integer: true }),
    };
    this.exporter = options.exporter ?? exporterFromOptions(options);
    if (this.exporter) this.batches = new BatchQueue(this.exporter, batching);
  }

  /** Never prints the exporter's keys (`util.inspect`, `console.log`). */
  [INSPECT_CUSTOM](_depth: number, options: unknown, inspect?: (v: unknown, o?: unknown) => string): string {
    const b = this.batches?.options;
    return inspectSummary(
      'ObsSpanProcessor',
      {
        enabled: this.enabled,
        exportMode: b?.immediate ? 'immediate' : 'batched',
        flushAt: b?.flushAt,
        queued: this.batches?.length ?? 0,
        exporter: this.exporter,
      },
      options,
      inspect,
    );
  }

  /** Whether spans leave the process (false when keys or base URL are missing). */
  get enabled(): boolean {
    return this.exporter !== undefined;
  }

  onStart(span: Span, parentContext: Context): void {
    this.enricher.start(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    const batches = this.batches;
    if (!batches || this.stopped) return;
    if (!this.gate.accepts(span) || !batches.hasRoom()) return;
    try {
      this.enricher.end(span);
      this.gate.prepare(span);
      batches.push(span);
    } catch (err) {
      // Never into the app's `span.end()`.
      logger.error(`span "${span.name}" could not be queued for export and is dropped: ${String(err)}`);
    }
  }

  /** Resolves when every span accepted so far has been answered by the server. */
  async forceFlush(): Promise<void> {
    await this.batches?.flush();
    await this.exporter?.forceFlush?.();
  }

  /**
   * Like `forceFlush`, but gives up after `timeoutMs` (default `shutdownTimeout`): what is not
   * delivered by then is dropped and reported in one line. For shutdown and signal hooks.
   */
  async flushWithin(timeoutMs = this.shutdownTimeoutMs): Promise<void> {
    this.batches?.drain();
    const exporter = this.exporter;
    if (exporter instanceof ObsOtlpExporter) {
      // The OTLP exporter holds every drained batch in its queue; it abandons them itself.
      await exporter.flushWithin(timeoutMs);
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([this.forceFlush(), late]);
    clearTimeout(timer);
  }

  /** Flushes within `shutdownTimeout`, then stops the exporter. Spans ending afterwards are not exported. */
  async shutdown(): Promise<void> {
    if (this.stopped) return;
    await this.flushWithin();
    this.stopped = true;
    await this.exporter?.shutdown();
  }
}

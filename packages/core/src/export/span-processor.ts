import type { Attributes, Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ObsAttributes } from '../attributes.js';
import { resolveConnection, type ObsConnectionOptions } from '../config.js';
import { readEnv } from '../env.js';
import { numberOption, secondsToTimerMs } from '../numeric-option.js';
import { DEFAULT_DELIVERY_LIMITS } from './delivery-queue.js';
import { capAttributeValues, DEFAULT_MAX_VALUE_CHARS } from './value-cap.js';
import { logger } from '../logger.js';
import { INSPECT_CUSTOM, inspectSummary } from '../secret-inspect.js';
import { IN_OBS_TRACE_KEY } from '../tracing/context-keys.js';
import { SDK_TRACER_NAME } from '../version.js';
import { lateAttributesOf } from '../tracing/late-attributes.js';
import { propagatedAttributesOf } from '../tracing/propagation.js';
import { resolveCompression } from './compression.js';
import { applyMask, type MaskFunction } from './mask.js';
import { ObsOtlpExporter } from './otlp-exporter.js';
import { isDefaultExportSpan, isFrameworkScope, isLlmScope, markInObsTrace } from './span-filter.js';
import { rememberExportParents, shapeForExport, type FrameworkSpansMode } from './foreign-spans.js';
import { applyGenAiAttributes } from './genai-attributes.js';
import { applyRequestIdentity, mergeLateAttributes, rememberRequestBox } from './late-identity.js';

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
  /** Most encoded bytes held for retry; past it new batches are dropped and counted. Default 64 MiB. */
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

/** An `OBS_*` number as given (a bad one is reported by `numberOption`), or undefined when unset. */
function envNumber(name: string): unknown {
  const raw = readEnv(name)?.trim();
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  return Number.isNaN(n) ? raw : n;
}

/**
 * An OpenTelemetry `SpanProcessor` that sends obs spans to an obs server. At span start it
 * copies the propagated trace attributes (user, session, tags, metadata, ...) onto the span;
 * at span end it filters, masks and queues it. `forceFlush()` resolves once everything
 * accepted so far is answered by the server.
 */
export class ObsSpanProcessor implements SpanProcessor {
  private readonly exporter?: SpanExporter;
  private readonly immediate: boolean;
  private readonly flushAt: number;
  private readonly flushIntervalMs: number;
  private readonly maxQueueSize: number;
  private readonly maxValueChars: number;
  /** How long `shutdown()` and the signal hooks wait for delivery, in ms. */
  readonly shutdownTimeoutMs: number;
  private readonly environment?: string;
  private readonly release?: string;
  private readonly mask?: MaskFunction;
  private readonly shouldExport: (params: { otelSpan: ReadableSpan }) => boolean;
  private readonly frameworkSpans: FrameworkSpansMode;
  private queue: ReadableSpan[] = [];
  private readonly pending = new Set<Promise<void>>();
  private timer?: ReturnType<typeof setTimeout>;
  private stopped = false;
  private droppedLogged = false;
  private drainScheduled = false;

  constructor(options: ObsSpanProcessorOptions = {}) {
    this.immediate = options.exportMode === 'immediate';
    this.flushAt = numberOption('flushAt', options.flushAt ?? envNumber('OBS_FLUSH_AT'), 512, { integer: true });
    this.flushIntervalMs = secondsToTimerMs(numberOption('flushInterval', options.flushInterval ?? envNumber('OBS_FLUSH_INTERVAL'), 1));
    this.maxQueueSize = numberOption('maxQueueSize', options.maxQueueSize, 10_000, { integer: true });
    this.maxValueChars = numberOption('maxValueChars', options.maxValueChars, DEFAULT_MAX_VALUE_CHARS, { integer: true });
    this.shutdownTimeoutMs = secondsToTimerMs(numberOption('shutdownTimeout', options.shutdownTimeout, 15, { allowZero: true }));
    this.environment = options.environment ?? readEnv('OBS_TRACING_ENVIRONMENT');
    this.release = options.release ?? readEnv('OBS_RELEASE');
    this.mask = options.mask;
    this.shouldExport = options.shouldExportSpan ?? (({ otelSpan }) => isDefaultExportSpan(otelSpan));
    this.frameworkSpans = options.frameworkSpans === 'export' ? 'export' : 'skip';
    if (options.exporter) {
      this.exporter = options.exporter;
      return;
    }
    const conn = resolveConnection(options);
    if (!conn.ok) {
      logger.warnOnce(
        'missing-connection',
        `obs is not configured: missing ${conn.missing.join(', ')}; spans and scores are not sent. Set them as options or environment variables.`,
      );
      return;
    }
    this.exporter = new ObsOtlpExporter({
      baseUrl: conn.baseUrl!,
      publicKey: conn.publicKey!,
      secretKey: conn.secretKey!,
      compression: resolveCompression(options.compression),
      additionalHeaders: options.additionalHeaders,
      timeoutMs: secondsToTimerMs(numberOption('timeout', options.timeout ?? envNumber('OBS_TIMEOUT'), 10)),
      delivery: {
        backoffMs: numberOption('backoffMs', options.backoffMs, 200),
        retryBudgetMs: secondsToTimerMs(numberOption('retryBudget', options.retryBudget, 60, { allowZero: true })),
        maxBufferBytes: numberOption('maxBufferBytes', options.maxBufferBytes, DEFAULT_DELIVERY_LIMITS.maxBufferBytes, { integer: true }),
        maxConcurrent: numberOption('maxConcurrentExports', options.maxConcurrentExports, 4, { integer: true, max: 64 }),
      },
      outageReportEveryMs: secondsToTimerMs(numberOption('outageReportInterval', options.outageReportInterval, 30)),
    });
  }

  /** Never prints the exporter's keys (`util.inspect`, `console.log`). */
  [INSPECT_CUSTOM](_depth: number, options: unknown, inspect?: (v: unknown, o?: unknown) => string): string {
    return inspectSummary(
      'ObsSpanProcessor',
      { enabled: this.enabled, exportMode: this.immediate ? 'immediate' : 'batched', flushAt: this.flushAt, queued: this.queue.length, exporter: this.exporter },
      options,
      inspect,
    );
  }

  /** Whether spans leave the process (false when keys or base URL are missing). */
  get enabled(): boolean {
    return this.exporter !== undefined;
  }

  onStart(span: Span, parentContext: Context): void {
    // An observation's own version wins over the propagated (trace-level) one.
    const ownVersion = span.attributes?.[ObsAttributes.VERSION];
    const box = lateAttributesOf(parentContext);
    rememberRequestBox(span, box);
    const late = box?.read();
    if (late) mergeLateAttributes(span.attributes as Attributes, late);
    // Explicit propagateAttributes inside the request wins over late (identify) attributes.
    const propagated = propagatedAttributesOf(parentContext);
    if (propagated) span.setAttributes(propagated);
    if (ownVersion !== undefined && (late || propagated)) span.setAttribute(ObsAttributes.VERSION, ownVersion);
    // The processor's environment is a default: an observation that names its own keeps it.
    if (this.environment && span.attributes?.[ObsAttributes.ENVIRONMENT] === undefined) {
      span.setAttribute(ObsAttributes.ENVIRONMENT, this.environment);
    }
    if (this.release) span.setAttribute(ObsAttributes.RELEASE, this.release);
    // obs-sdk spans are exported by scope; only other tracers' spans need the mark.
    const scope = span.instrumentationScope?.name ?? '';
    const own = scope === SDK_TRACER_NAME;
    const inObs = Boolean(parentContext.getValue(IN_OBS_TRACE_KEY));
    if (inObs && !own) markInObsTrace(span);
    rememberExportParents(span, parentContext, own || inObs || isLlmScope(scope), this.frameworkSpans);
  }

  onEnd(span: ReadableSpan): void {
    if (!this.exporter || this.stopped) return;
    try {
      const keptFramework = this.frameworkSpans === 'export' && isFrameworkScope(span.instrumentationScope?.name ?? '');
      if (!keptFramework && !this.shouldExport({ otelSpan: span })) return;
    } catch (err) {
      logger.warn(`shouldExportSpan threw; span "${span.name}" exported anyway (${String(err)})`);
    }
    if (this.queue.length >= this.maxQueueSize) {
      if (!this.droppedLogged) logger.error(`span queue full (${this.maxQueueSize}); dropping spans until the server catches up`);
      this.droppedLogged = true;
      return;
    }
    // The request's identity may have resolved after this span started (async identify).
    applyRequestIdentity(span);
    // GenAI and AI SDK spans read as generations (before the mask, which must see their input).
    applyGenAiAttributes(span);
    if (this.mask) applyMask(span.attributes as Record<string, never>, this.mask);
    capAttributeValues(span.attributes as Record<string, never>, this.maxValueChars);
    this.queue.push(span);
    // Serialising happens in the drain, never inside the span.end() of the user's code.
    if (this.immediate || this.queue.length >= this.flushAt) this.scheduleDrain();
    else this.timer ??= this.startTimer();
  }

  /** Resolves when every span accepted so far has been answered by the server. */
  async forceFlush(): Promise<void> {
    this.drain();
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    await this.exporter?.forceFlush?.();
  }

  /**
   * Like `forceFlush`, but gives up after `timeoutMs` (default `shutdownTimeout`): what is not
   * delivered by then is dropped and reported in one line. For shutdown and signal hooks.
   */
  async flushWithin(timeoutMs = this.shutdownTimeoutMs): Promise<void> {
    this.drain();
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

  private startTimer(): ReturnType<typeof setTimeout> {
    const t = setTimeout(() => {
      this.timer = undefined;
      this.drain();
    }, this.flushIntervalMs);
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

  private drain(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.flushAt);
      // Spans that ended while the request's async identify was pending get it now.
      for (const span of batch) applyRequestIdentity(span);
      this.exportBatch(batch);
    }
    this.droppedLogged = false;
  }

  private exportBatch(spans: ReadableSpan[]): void {
    const exporter = this.exporter!;
    const p = new Promise<void>((resolve) => {
      try {
        // Failures are reported by the exporter (ObsOtlpExporter: one line per outage).
        exporter.export(spans.map(shapeForExport), () => resolve());
      } catch (err) {
        logger.error(`exporter threw: ${String(err)}`);
        resolve();
      }
    });
    this.pending.add(p);
    void p.then(() => this.pending.delete(p));
  }
}

/**
 * `ObsSpanProcessor`: the OpenTelemetry span processor that sends obs spans to an obs server. It
 * composes five parts, as OpenTelemetry draws them: the enricher (attributes at start and end),
 * the export gate (filter, mask, cap), the media step (uploads and references), the batch
 * queue, and the exporter (OTLP encoding and a transport with its retry buffer).
 */
import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, SdkSpan as Span, SpanExporter, SpanProcessor } from '../tracing/sdk-types.js';
import { readEnv } from '../config/env.js';
import { numberOption, secondsToTimerMs } from '../config/numeric-option.js';
import { logger } from '../util/logger.js';
import { INSPECT_CUSTOM, inspectSummary } from '../util/secret-inspect.js';
import { drainWithin, nothingToDeliver, timeoutOf, type DeliveryKind, type DrainTimeoutOptions } from '../delivery/drain.js';
import { isDeliveringExporter } from './pipeline/exporter-capabilities.js';
import { envNumber, exporterFromOptions, mediaUploadsFromOptions, requestSettings } from './exporter-from-options.js';
import { SpanMedia } from './media/span-media.js';
import { wholeMediaText } from './media/media-text.js';
import { keepMediaWhole } from '../tracing/media-capture.js';
import type { ObsSpanProcessorOptions } from './options.js';
import { BatchQueue, type ExportSteps } from './pipeline/batch-queue.js';
import { ExportGate } from './pipeline/export-gate.js';
import { type FrameworkSpansMode, shapeForExport } from './pipeline/foreign-spans.js';
import { applyRequestIdentity, identityPending } from './pipeline/late-identity.js';
import { SpanEnricher } from './pipeline/span-enricher.js';
import { DEFAULT_MAX_VALUE_CHARS } from './pipeline/value-cap.js';

export type { ObsSpanProcessorOptions } from './options.js';

/**
 * The steps between a span's end and its encoding: the request identity that resolved late
 * (async `identify`) is merged in once it is known, media is uploaded and replaced by references
 * (the span waits for its asks, bounded), values are capped, and the parent is moved to the
 * nearest exported ancestor (framework spans left out).
 */
function exportSteps(media: SpanMedia, gate: ExportGate): ExportSteps {
  return {
    ready: (span) => !identityPending(span),
    hold: (span) => media.hold(span),
    prepare(span) {
      applyRequestIdentity(span);
      media.apply(span);
      gate.cap(span);
      return shapeForExport(span);
    },
  };
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
  /** How long `shutdown()`, the signal hooks and (by default) `forceFlush()` wait for delivery, in ms. */
  readonly shutdownTimeoutMs: number;
  /** @internal The spans this processor holds, as a drain sees them (`initObs` drains them with the scores). */
  readonly delivery: DeliveryKind;
  /** @internal The media uploads of its spans, as a drain sees them (drained with the spans). */
  readonly mediaDelivery: DeliveryKind;
  private stopped = false;

  constructor(options: ObsSpanProcessorOptions = {}) {
    // Observation values keep their base64 media whole from now on: this export uploads it.
    keepMediaWhole(wholeMediaText);
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
    const settings = requestSettings(options);
    this.exporter = options.exporter ?? exporterFromOptions(options, () => this.batches?.length ?? 0, settings);
    const uploads = this.exporter ? mediaUploadsFromOptions(options, settings) : undefined;
    if (this.exporter) this.batches = new BatchQueue(this.exporter, batching, exportSteps(new SpanMedia(uploads), this.gate));
    this.mediaDelivery = uploads?.delivery ?? nothingToDeliver('media');
    this.delivery = spanDelivery(this.batches, this.exporter, this.mediaDelivery);
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

  /** How spans are batched, as resolved from options and environment (none while disabled). */
  get batching(): { immediate: boolean; flushAt: number; flushIntervalMs: number } | undefined {
    const o = this.batches?.options;
    return o && { immediate: o.immediate, flushAt: o.flushAt, flushIntervalMs: o.flushIntervalMs };
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
      // The mask sees what the app gave (media included); media and the cap come off the request path.
      this.gate.applyMask(span);
      batches.push(span);
    } catch (err) {
      // Never into the app's `span.end()`.
      logger.error(`span "${span.name}" could not be queued for export and is dropped: ${String(err)}`);
    }
  }

  /**
   * Resolves when every span accepted so far has been answered by the server, or after
   * `shutdownTimeout` (one line says what is still buffered; it stays buffered and retried).
   */
  async forceFlush(): Promise<void> {
    await this.flush();
  }

  /** `forceFlush` with a bound of your choice: resolves true when everything was delivered within `timeoutMs`. */
  flush(options?: DrainTimeoutOptions): Promise<boolean> {
    return drainWithin([this.delivery, this.mediaDelivery], timeoutOf(options, this.shutdownTimeoutMs), { mode: 'flush', label: 'flush' });
  }

  /**
   * Delivers what it can within `timeoutMs` (default `shutdownTimeout`), then drops the rest and
   * says so in one line. For shutdown and signal hooks.
   */
  async flushWithin(timeoutMs = this.shutdownTimeoutMs): Promise<void> {
    await drainWithin([this.delivery, this.mediaDelivery], timeoutMs, { mode: 'shutdown', label: 'shutdown' });
  }

  /** Flushes within `shutdownTimeout`, then stops the exporter. Spans ending afterwards are not exported. */
  async shutdown(): Promise<void> {
    if (this.stopped) return;
    await this.flushWithin();
    this.stopped = true;
    await this.exporter?.shutdown();
  }
}

/**
 * The processor's spans as one delivery kind: those waiting for a batch (or for their media's
 * asks) and those the exporter holds, and the uploads of their media. obs's exporter is counted, given a last try and abandoned batch by batch; another
 * exporter's unanswered batches can only be waited for, and are counted as in flight.
 */
function spanDelivery(batches: BatchQueue | undefined, exporter: SpanExporter | undefined, media: DeliveryKind): DeliveryKind {
  const held = exporter && isDeliveringExporter(exporter) ? exporter.delivery : undefined;
  const none = { unsent: 0, inFlight: 0 };
  return {
    unit: 'spans',
    async settled() {
      await batches?.flush();
      // The spans' media is asked for while they wait in the queue: its uploads started then, after
      // the drain first asked the media kind, and are waited for here.
      await Promise.all([held ? held.settled() : exporter?.forceFlush?.(), media.settled()]);
    },
    pending: () => (batches?.length ?? 0) + (held ? held.pending() : (batches?.handedOver ?? 0)),
    lastTry() {
      held?.lastTry();
      batches?.drain();
    },
    endLastTry: () => held?.endLastTry() ?? none,
    abandon() {
      // Spans still waiting for their media's asks go now, with markers in place of the media.
      batches?.drain(true);
      return held ? held.abandon() : { unsent: 0, inFlight: batches?.handedOver ?? 0 };
    },
    settle: (final) => held?.settle(final),
    drainBy: (deadline) => held?.drainBy?.(deadline) ?? (() => undefined),
  };
}

/** The options of `ObsSpanProcessor` (and of `initObs`), in one place for the processor and the exporter it builds. */
import type { ReadableSpan, SpanExporter } from '../tracing/sdk-types.js';
import type { ObsConnectionOptions } from '../config/connection.js';
import type { FrameworkSpansMode } from './pipeline/foreign-spans.js';
import type { MaskFunction } from './pipeline/mask.js';

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
  /**
   * Base64 media (data URIs, base64 image and audio parts) and binary data in inputs, outputs and
   * metadata is uploaded to the obs server once per content and exported as a reference
   * (`@@@obsMedia:...@@@`); default `true`. `false` exports it as it is (cut at `maxValueChars`,
   * binary data as `[binary N bytes, type]`).
   */
  media?: boolean;
  /** Longest input, output or metadata value in characters (after media was replaced by references); longer ones are cut with a marker. Default 1 000 000. */
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

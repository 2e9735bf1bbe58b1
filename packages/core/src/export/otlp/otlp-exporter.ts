import { context, ROOT_CONTEXT } from '@opentelemetry/api';
import { ExportResultCode, suppressTracing, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { basicAuth, sdkHeaders } from '../../config/connection.js';
import { logger } from '../../util/logger.js';
import { INSPECT_CUSTOM, inspectSummary, maskSecret } from '../../util/secret-inspect.js';
import { isRetryableStatus, parseRetryAfter } from '../../util/retry.js';
import { SDK_VERSION } from '../../util/version.js';
import { gunzip, gzip, type Compression } from './compression.js';
import {
  DEFAULT_DELIVERY_LIMITS,
  DeliveryQueue,
  type DeliveryLimits,
  type DeliveryTransport,
  type SendOutcome,
} from '../delivery/delivery-queue.js';
import { mergeHeaders } from './headers.js';
import { httpPost, networkReason, type Post, type PostResult } from './http-post.js';
import type { BoundedFlushExporter, EncodedExporter } from '../pipeline/exporter-capabilities.js';
import { EncodedSpanBatch, encodeTraceExportRequest } from './otlp-proto-encoder.js';
import { splitTraceExportRequest } from './protobuf/split-request.js';

/** Settings of the OTLP/HTTP exporter that sends spans to an obs server. */
export interface ObsOtlpExporterOptions {
  baseUrl: string;
  publicKey: string;
  secretKey: string;
  compression: Compression;
  /** Headers that replace defaults whatever the case of their names. */
  additionalHeaders?: Record<string, string>;
  /** Per-request timeout in milliseconds; default 10 000. A timed-out request is retried. */
  timeoutMs?: number;
  /** Limits of the retry buffer (bytes, spans, requests in flight, retry budget, backoff). */
  delivery?: Partial<DeliveryLimits>;
  /** Interval between "still failing" lines of one outage, in ms; default 30 000. */
  outageReportEveryMs?: number;
  /**
   * Send with `fetch` even on Node.js. By default Node.js sends through `node:http`/`node:https`
   * with keep-alive connections (a quarter of `fetch`'s CPU per request); other runtimes always
   * use `fetch`.
   */
  useFetch?: boolean;
}

/** Path of the OTLP traces endpoint (wire contract 1). */
export const TRACES_PATH = '/api/public/otel/v1/traces';

/**
 * OTLP over HTTP with protobuf bodies: the smallest encoding, each span serialised once off the
 * request path (shortly after it ends, into the batch `ObsSpanProcessor` fills span by span, or
 * per batch handed to `export`). The transport (`httpPost`: `node:http` with
 * keep-alive on Node.js, `fetch` elsewhere) only carries bytes; this class owns the OTLP side:
 * headers, compression, what an answer means (delivered, retry, too large, refused).
 * Batches are encoded and compressed once, then wait as bytes (no span objects) in a bounded
 * `DeliveryQueue` that retries them through outages and splits one the server finds too large.
 * Its own requests never create spans (tracing is suppressed while it sends).
 */
export class ObsOtlpExporter implements EncodedExporter<EncodedSpanBatch>, BoundedFlushExporter {
  private readonly url: string;
  readonly #headers: Record<string, string>;
  readonly #options: ObsOtlpExporterOptions;
  private readonly post: Post;
  private readonly queue: DeliveryQueue;
  /**
   * One controller per request in flight, made when the request is: on Cloudflare Workers an
   * `AbortSignal` is bound to the request whose code created it, so one long-lived signal handed
   * to every export would fail each export made while serving another request.
   */
  private readonly inFlight = new Set<AbortController>();
  private stopped = false;

  constructor(options: ObsOtlpExporterOptions) {
    this.#options = options;
    this.url = `${options.baseUrl}${TRACES_PATH}`;
    this.#headers = mergeHeaders(
      {
        Authorization: basicAuth(options.publicKey, options.secretKey),
        'Content-Type': 'application/x-protobuf',
        'x-obs-ingestion-version': '4',
        ...sdkHeaders(options.publicKey, SDK_VERSION),
        ...(options.compression === 'gzip' ? { 'Content-Encoding': 'gzip' } : {}),
      },
      options.additionalHeaders,
    );
    this.post = httpPost(this.url, this.#headers, options.useFetch);
    const gzipped = options.compression === 'gzip';
    // Compressed once, before the batch is buffered: retries resend the same bytes.
    const pack = (encoded: Uint8Array) => (gzipped ? offTrace(() => gzip(encoded)) : Promise.resolve(encoded));
    const transport: DeliveryTransport = {
      pack,
      split: async (body) => {
        const parts = splitTraceExportRequest(gzipped ? await offTrace(() => gunzip(body)) : body);
        return Promise.all(parts.map(async (p) => ({ spans: p.spans, body: await pack(p.body) })));
      },
      send: (body, count) => this.attempt(body, count),
      abortAll: () => {
        for (const controller of this.inFlight) controller.abort(new Error('shutdown ran out of time'));
        this.inFlight.clear();
      },
    };
    this.queue = new DeliveryQueue(
      transport,
      this.url,
      { ...DEFAULT_DELIVERY_LIMITS, ...definedOnly(options.delivery) },
      options.outageReportEveryMs,
    );
  }

  /** Never prints the secret key or the Basic header. */
  [INSPECT_CUSTOM](_depth: number, options: unknown, inspect?: (v: unknown, o?: unknown) => string): string {
    const { baseUrl, publicKey, secretKey, compression } = this.#options;
    return inspectSummary(
      'ObsOtlpExporter',
      { baseUrl, publicKey, secretKey: maskSecret(secretKey), compression, buffered: this.queue.bufferedSpans },
      options,
      inspect,
    );
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.take(spans.length, () => encodeTraceExportRequest(spans), resultCallback);
  }

  /** @internal A batch to encode ended spans into, span by span (`EncodedExporter`). */
  startBatch(): EncodedSpanBatch {
    return new EncodedSpanBatch();
  }

  /**
   * @internal Takes a batch encoded span by span as the spans ended (how `ObsSpanProcessor` hands
   * over batches to this exporter, so that no span object waits for its batch); otherwise as `export`.
   */
  exportEncoded(batch: EncodedSpanBatch, resultCallback: (result: ExportResult) => void): void {
    this.take(batch.count, () => batch.finish(), resultCallback);
  }

  /** Buffers the request of `count` spans that `encode` gives. */
  private take(count: number, encode: () => Uint8Array, resultCallback: (result: ExportResult) => void): void {
    if (this.stopped) {
      resultCallback({ code: ExportResultCode.FAILED, error: new Error('exporter is shut down') });
      return;
    }
    if (count === 0) {
      resultCallback({ code: ExportResultCode.SUCCESS });
      return;
    }
    this.queue.enqueue(count, encode, answer(resultCallback));
  }

  /** Buffers one batch and resolves once it is delivered or given up. */
  send(spans: ReadableSpan[]): Promise<ExportResult> {
    return new Promise((resolve) => this.export(spans, resolve));
  }

  /** Resolves when every batch handed to `export` has been delivered or given up. */
  async forceFlush(): Promise<void> {
    await this.queue.whenIdle();
  }

  /**
   * Delivers what it can within `timeoutMs` (default: no limit), then gives up on the rest,
   * reporting it in one line.
   */
  async shutdown(timeoutMs?: number): Promise<void> {
    if (timeoutMs === undefined) await this.forceFlush();
    else await this.flushWithin(timeoutMs);
    this.stopped = true;
  }

  /** Waits for the buffer to drain, or gives up on what is left after `timeoutMs` (one log line). */
  async flushWithin(timeoutMs: number): Promise<void> {
    await deliverWithin(this.queue, timeoutMs);
  }

  /** One POST of a batch's body (compressed already), classified for the delivery queue. */
  private async attempt(body: Uint8Array, count: number): Promise<SendOutcome> {
    let res: PostResult;
    const controller = new AbortController();
    this.inFlight.add(controller);
    try {
      res = await offTrace(() => this.post(body, this.#options.timeoutMs ?? 10_000, controller.signal));
    } catch (err) {
      const reason = networkReason(err);
      logExportAnswer(count, reason);
      return { kind: 'retry', reason };
    } finally {
      this.inFlight.delete(controller);
    }
    logExportAnswer(count, `HTTP ${res.status}`);
    if (res.status >= 200 && res.status < 300) return { kind: 'delivered' };
    const text = res.text.slice(0, 300);
    if (res.status === 413) return { kind: 'too-large', reason: `HTTP 413: ${text}` };
    if (res.status === 401) {
      return { kind: 'retry', reason: `the server refused the keys: check OBS_PUBLIC_KEY/OBS_SECRET_KEY for ${this.#options.baseUrl}` };
    }
    if (isRetryableStatus(res.status))
      return { kind: 'retry', reason: `HTTP ${res.status}`, retryAfterMs: parseRetryAfter(res.retryAfter) };
    return { kind: 'refused', reason: `HTTP ${res.status}: ${text}` };
  }
}

/**
 * The per-export debug line (`OBS_LOG_LEVEL=debug`): how many spans were sent and what the
 * server answered.
 */
export function logExportAnswer(spanCount: number, answer: string): void {
  logger.debug(`exported ${spanCount} spans: ${answer}`);
}

/** The delivery queue's verdict as an OpenTelemetry `ExportResult`. */
function answer(resultCallback: (result: ExportResult) => void): (ok: boolean, reason?: string) => void {
  return (ok, reason) =>
    resultCallback(
      ok ? { code: ExportResultCode.SUCCESS } : { code: ExportResultCode.FAILED, error: new Error(reason ?? 'export failed') },
    );
}

/** Runs `fn` with tracing suppressed: instrumentations of HTTP or zlib must not trace the export's own work. */
function offTrace<T>(fn: () => Promise<T>): Promise<T> {
  return context.with(suppressTracing(ROOT_CONTEXT), fn);
}

/** Waits for the queue to drain, or abandons what is left after `timeoutMs`. */
async function deliverWithin(queue: DeliveryQueue, timeoutMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), timeoutMs)));
  const result = await Promise.race([queue.whenIdle().then(() => 'idle' as const), late]);
  clearTimeout(timer);
  if (result === 'late') queue.abandon(`shutdown gave up after ${(timeoutMs / 1000).toFixed(1)} s`);
}

function definedOnly<T extends object>(o: T | undefined): Partial<T> {
  if (!o) return {};
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

import { ExportResultCode, type ExportResult, type ReadableSpan } from '../../tracing/sdk-types.js';
import { basicAuth, sdkHeaders } from '../../config/connection.js';
import { logger } from '../../util/logger.js';
import { INSPECT_CUSTOM, inspectSummary, maskSecret } from '../../util/secret-inspect.js';
import { SDK_VERSION } from '../../util/version.js';
import { gunzip, gzip, type Compression } from './compression.js';
import {
  DeliveryQueue,
  deliveryLimits,
  type DeliveryLimits,
  type DeliveryTransport,
  type SendOutcome,
} from '../../delivery/delivery-queue.js';
import type { Leftover } from '../../delivery/drain.js';
import { httpPost } from '../../delivery/node-post.js';
import { answerOutcome, failureOutcome, networkReason } from '../../delivery/outcome.js';
import { fetchPost, type Post, type PostResult } from '../../delivery/post.js';
import { mergeHeaders } from './headers.js';
import { withTracingSuppressed as offTrace } from '../../tracing/suppress.js';
import type { DeliveringExporter, EncodedExporter, ExporterDelivery } from '../pipeline/exporter-capabilities.js';
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
  /** Spans accepted upstream and not handed over yet (the processor's batch being filled), for the outage lines. */
  waiting?: () => number;
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
export class ObsOtlpExporter implements EncodedExporter<EncodedSpanBatch>, DeliveringExporter {
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
  /** Whether the server has answered once: a name that stops resolving later is an outage, not a typo. */
  private reached = false;
  /** @internal The spans this exporter holds, as the processor's drains see them. */
  readonly delivery: ExporterDelivery;

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
    this.post = options.useFetch ? fetchPost(this.url, this.#headers) : httpPost(this.url, this.#headers);
    const gzipped = options.compression === 'gzip';
    // Compressed once, before the batch is buffered: retries resend the same bytes.
    const pack = (encoded: Uint8Array) => (gzipped ? offTrace(() => gzip(encoded)) : Promise.resolve(encoded));
    const transport: DeliveryTransport = {
      pack,
      split: async (body) => {
        const parts = splitTraceExportRequest(gzipped ? await offTrace(() => gunzip(body)) : body);
        return Promise.all(parts.map(async (p) => ({ items: p.items, body: await pack(p.body) })));
      },
      send: (body, count) => this.attempt(body, count),
      abortAll: () => {
        for (const controller of this.inFlight) controller.abort(new Error('the drain ran out of time'));
        this.inFlight.clear();
      },
    };
    const queue = new DeliveryQueue(transport, {
      unit: 'spans',
      target: this.url,
      limits: deliveryLimits(options.delivery),
      reportEveryMs: options.outageReportEveryMs,
      waiting: options.waiting,
    });
    this.queue = queue;
    this.delivery = {
      whenIdle: () => queue.whenIdle(),
      pending: () => queue.pendingItems,
      lastTry: () => queue.lastTry(),
      endLastTry: (): Leftover => queue.endLastTry(),
      abandon: (): Leftover => queue.abandon(),
      settle: (final) => queue.settle(final),
      drainBy: (deadline) => queue.drainBy(deadline),
    };
  }

  /** Never prints the secret key or the Basic header. */
  [INSPECT_CUSTOM](_depth: number, options: unknown, inspect?: (v: unknown, o?: unknown) => string): string {
    const { baseUrl, publicKey, secretKey, compression } = this.#options;
    return inspectSummary(
      'ObsOtlpExporter',
      { baseUrl, publicKey, secretKey: maskSecret(secretKey), compression, buffered: this.queue.bufferedItems },
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

  /** Stops taking batches once what it holds is answered (the processor bounds that wait with its deadline). */
  async shutdown(): Promise<void> {
    await this.forceFlush();
    this.stopped = true;
  }

  /** One POST of a batch's body (compressed already), classified for the delivery queue. */
  private async attempt(body: Uint8Array, count: number): Promise<SendOutcome> {
    let res: PostResult;
    const controller = new AbortController();
    this.inFlight.add(controller);
    try {
      res = await offTrace(() => this.post(body, this.#options.timeoutMs ?? 10_000, controller.signal));
    } catch (err) {
      logExportAnswer(count, networkReason(err));
      return failureOutcome(err, this.reached);
    } finally {
      this.inFlight.delete(controller);
    }
    this.reached = true;
    logExportAnswer(count, `HTTP ${res.status}`);
    return answerOutcome(res, `the server refused the keys: check OBS_PUBLIC_KEY/OBS_SECRET_KEY for ${this.#options.baseUrl}`);
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

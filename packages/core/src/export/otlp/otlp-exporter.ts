import { ExportResultCode, type ExportResult, type ReadableSpan } from '../../tracing/sdk-types.js';
import { basicAuth, sdkHeaders } from '../../config/connection.js';
import { logger } from '../../util/logger.js';
import { INSPECT_CUSTOM, inspectSummary, maskSecret } from '../../util/secret-inspect.js';
import { SDK_VERSION } from '../../util/version.js';
import { gunzip, gzip, type Compression } from './compression.js';
import { httpPost } from '../../delivery/node-post.js';
import { networkReason } from '../../delivery/outcome.js';
import { fetchPost } from '../../delivery/post.js';
import { Sender, type DeliveryLimits } from '../../delivery/sender.js';
import { mergeHeaders } from './headers.js';
import { withTracingSuppressed as offTrace } from '../../tracing/suppress.js';
import type { DeliveringExporter, EncodedExporter } from '../pipeline/exporter-capabilities.js';
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
 * per batch handed to `export`). This class owns the OTLP side: headers, compression, how a body
 * is split when the server finds it too large, the per-export debug line. Batches are encoded and
 * compressed once, then wait as bytes (no span objects) in a `Sender` of batches
 * (`delivery/sender.ts`) that retries them through outages over `httpPost` (`node:http` with
 * keep-alive on Node.js, `fetch` elsewhere). Its own requests never create spans (tracing is
 * suppressed while it sends).
 */
export class ObsOtlpExporter implements EncodedExporter<EncodedSpanBatch>, DeliveringExporter {
  readonly #options: ObsOtlpExporterOptions;
  private stopped = false;
  /** @internal The spans this exporter holds, as the processor's drains see them. */
  readonly delivery: Sender;

  constructor(options: ObsOtlpExporterOptions) {
    this.#options = options;
    const url = `${options.baseUrl}${TRACES_PATH}`;
    const headers = mergeHeaders(
      {
        Authorization: basicAuth(options.publicKey, options.secretKey),
        'Content-Type': 'application/x-protobuf',
        'x-obs-ingestion-version': '4',
        ...sdkHeaders(options.publicKey, SDK_VERSION),
        ...(options.compression === 'gzip' ? { 'Content-Encoding': 'gzip' } : {}),
      },
      options.additionalHeaders,
    );
    const post = options.useFetch ? fetchPost(url, headers) : httpPost(url, headers);
    const timeoutMs = options.timeoutMs ?? 10_000;
    const gzipped = options.compression === 'gzip';
    // Compressed once, before the batch is buffered: retries resend the same bytes.
    const pack = (encoded: Uint8Array) => (gzipped ? offTrace(() => gzip(encoded)) : Promise.resolve(encoded));
    this.delivery = new Sender({
      unit: 'spans',
      target: url,
      keysHint: `the server refused the keys: check OBS_PUBLIC_KEY/OBS_SECRET_KEY for ${options.baseUrl}`,
      limits: options.delivery,
      reportEveryMs: options.outageReportEveryMs,
      waiting: options.waiting,
      batches: {
        pack,
        split: async (body) => {
          const parts = splitTraceExportRequest(gzipped ? await offTrace(() => gunzip(body)) : body);
          return Promise.all(parts.map(async (p) => ({ items: p.items, body: await pack(p.body) })));
        },
        send: (body, signal) => offTrace(() => post(body, timeoutMs, signal)),
        read: (tried, outcome, count) => {
          // The per-export debug line (`OBS_LOG_LEVEL=debug`): how many spans were sent and what the server answered.
          logger.debug(`exported ${count} spans: ${tried.answer ? `HTTP ${tried.answer.status}` : networkReason(tried.error)}`);
          return outcome;
        },
      },
    });
  }

  /** Never prints the secret key or the Basic header. */
  [INSPECT_CUSTOM](_depth: number, options: unknown, inspect?: (v: unknown, o?: unknown) => string): string {
    const { baseUrl, publicKey, secretKey, compression } = this.#options;
    return inspectSummary(
      'ObsOtlpExporter',
      { baseUrl, publicKey, secretKey: maskSecret(secretKey), compression, buffered: this.delivery.pending() },
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
    // The sender's verdict as an OpenTelemetry `ExportResult`.
    this.delivery.enqueue(count, encode, (ok, reason) =>
      resultCallback(
        ok ? { code: ExportResultCode.SUCCESS } : { code: ExportResultCode.FAILED, error: new Error(reason ?? 'export failed') },
      ),
    );
  }

  /** Buffers one batch and resolves once it is delivered or given up. */
  send(spans: ReadableSpan[]): Promise<ExportResult> {
    return new Promise((resolve) => this.export(spans, resolve));
  }

  /** Resolves when every batch handed to `export` so far has been delivered or given up. */
  async forceFlush(): Promise<void> {
    await this.delivery.settled();
  }

  /** Stops taking batches once what it holds is answered (the processor bounds that wait with its deadline). */
  async shutdown(): Promise<void> {
    await this.forceFlush();
    this.stopped = true;
  }
}

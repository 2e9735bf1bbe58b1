// The OTLP exporter of @obs/core as it was before the hand-written encoder and the node:http
// transport (git 1f2d8e1..172e22e, packages/core/src/export/otlp-exporter.ts, transpiled): the official
// ProtobufTraceSerializer, gzip, fetch. Loaded in place of the current one by
// use-previous-exporter.mjs, to compare both on the same build. Not part of any package.
import { ExportResultCode } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { basicAuth, sdkHeaders } from '../../packages/core/dist/config.js';
import { logger } from '../../packages/core/dist/logger.js';
import { SDK_VERSION } from '../../packages/core/dist/version.js';
import { gzip } from '../../packages/core/dist/export/compression.js';
import { mergeHeaders } from '../../packages/core/dist/export/headers.js';
/** Path of the OTLP traces endpoint (wire contract 1). */
export const TRACES_PATH = '/api/public/otel/v1/traces';
/**
 * OTLP over HTTP with protobuf bodies: the smallest encoding, and serialised once per batch off
 * the request path. Uses `fetch`, so the same exporter runs on Node.js and edge runtimes.
 */
export class ObsOtlpExporter {
  options;
  url;
  headers;
  inFlight = new Set();
  stopped = false;
  constructor(options) {
    this.options = options;
    this.url = `${options.baseUrl}${TRACES_PATH}`;
    this.headers = mergeHeaders(
      {
        Authorization: basicAuth(options.publicKey, options.secretKey),
        'Content-Type': 'application/x-protobuf',
        'x-obs-ingestion-version': '4',
        ...sdkHeaders(options.publicKey, SDK_VERSION),
        ...(options.compression === 'gzip' ? { 'Content-Encoding': 'gzip' } : {}),
      },
      options.additionalHeaders,
    );
  }
  export(spans, resultCallback) {
    if (this.stopped) {
      resultCallback({ code: ExportResultCode.FAILED, error: new Error('exporter is shut down') });
      return;
    }
    const p = this.send(spans).then(resultCallback, (error) => resultCallback({ code: ExportResultCode.FAILED, error }));
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }
  /** Sends one batch, retrying network errors, 429 and 5xx with backoff (Retry-After honoured). */
  async send(spans) {
    if (spans.length === 0) return { code: ExportResultCode.SUCCESS };
    const serialised = ProtobufTraceSerializer.serializeRequest(spans);
    if (!serialised) return { code: ExportResultCode.FAILED, error: new Error('could not serialise spans') };
    const body = this.options.compression === 'gzip' ? await gzip(serialised) : serialised;
    const maxAttempts = this.options.maxAttempts ?? 3;
    let lastError = '';
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      let retryAfterMs;
      try {
        const res = await fetch(this.url, {
          method: 'POST',
          headers: this.headers,
          body: body,
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
        });
        if (res.ok) {
          await res.arrayBuffer().catch(() => undefined);
          return { code: ExportResultCode.SUCCESS };
        }
        const text = await res.text().catch(() => '');
        lastError = `HTTP ${res.status}: ${text.slice(0, 300)}`;
        if (res.status !== 429 && res.status < 500) break;
        retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
      } catch (err) {
        lastError = err?.message ?? String(err);
      }
      if (attempt < maxAttempts) await sleep(retryAfterMs ?? backoff(attempt, this.options.backoffMs ?? 200));
    }
    logger.error(`failed to export ${spans.length} spans to ${this.url}: ${lastError}`);
    return { code: ExportResultCode.FAILED, error: new Error(lastError) };
  }
  /** Resolves when every batch handed to `export` has been answered. */
  async forceFlush() {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
  async shutdown() {
    await this.forceFlush();
    this.stopped = true;
  }
}
/** Retry-After in seconds or as an HTTP date, capped at 30 s. */
export function parseRetryAfter(value) {
  if (!value) return undefined;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) && ms >= 0 ? Math.min(ms, 30_000) : undefined;
}
function backoff(attempt, base) {
  return base * 2 ** (attempt - 1) * (0.5 + Math.random() / 2);
}
function sleep(ms) {
  // Not unref'd: a retry during a shutdown flush must keep the process alive until it is done.
  return new Promise((resolve) => setTimeout(resolve, ms));
}

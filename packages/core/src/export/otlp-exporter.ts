import type { Agent, IncomingMessage, RequestOptions } from 'node:http';
import { context, ROOT_CONTEXT } from '@opentelemetry/api';
import { ExportResultCode, suppressTracing, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { basicAuth, sdkHeaders } from '../config.js';
import { logger } from '../logger.js';
import { backoffDelay, isRetryableStatus, parseRetryAfter, sleep } from '../retry.js';
import { SDK_VERSION } from '../version.js';
import { gzip, isNodeRuntime, type Compression } from './compression.js';
import { mergeHeaders } from './headers.js';
import { encodeTraceExportRequest } from './otlp-proto-encoder.js';

/** Settings of the OTLP/HTTP exporter that sends spans to an obs server. */
export interface ObsOtlpExporterOptions {
  baseUrl: string;
  publicKey: string;
  secretKey: string;
  compression: Compression;
  /** Headers that replace defaults whatever the case of their names. */
  additionalHeaders?: Record<string, string>;
  /** Per-request timeout in milliseconds; default 10 000. */
  timeoutMs?: number;
  /** Attempts per batch on network errors, 429 and 5xx; default 3. */
  maxAttempts?: number;
  /** Base of the exponential backoff in milliseconds; default 200. */
  backoffMs?: number;
  /**
   * Send with `fetch` even on Node.js. By default Node.js sends through `node:http`/`node:https`
   * with keep-alive connections (a quarter of `fetch`'s CPU per request); other runtimes always
   * use `fetch`.
   */
  useFetch?: boolean;
}

/** What the exporter needs of an answer. */
interface PostResult {
  status: number;
  /** The start of the body, for error messages (empty on success). */
  text: string;
  retryAfter: string | null;
}

type Post = (body: Uint8Array, timeoutMs: number) => Promise<PostResult>;

/** Path of the OTLP traces endpoint (wire contract 1). */
export const TRACES_PATH = '/api/public/otel/v1/traces';

/**
 * OTLP over HTTP with protobuf bodies: the smallest encoding, and serialised once per batch off
 * the request path (by `encodeTraceExportRequest`). Sends with `node:http`/`node:https` and
 * keep-alive on Node.js, with `fetch` elsewhere (edge runtimes), so the same exporter runs on both.
 * Its own requests never create spans (tracing is suppressed while it sends).
 */
export class ObsOtlpExporter implements SpanExporter {
  private readonly url: string;
  private readonly headers: Record<string, string>;
  private readonly post: Post;
  private readonly inFlight = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(private readonly options: ObsOtlpExporterOptions) {
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
    this.post = (!options.useFetch && nodePost(this.url, this.headers)) || fetchPost(this.url, this.headers);
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    if (this.stopped) {
      resultCallback({ code: ExportResultCode.FAILED, error: new Error('exporter is shut down') });
      return;
    }
    // Suppressed: HTTP instrumentations must not trace the export's own requests.
    const p = context
      .with(suppressTracing(ROOT_CONTEXT), () => this.send(spans))
      .then(resultCallback, (error: Error) => resultCallback({ code: ExportResultCode.FAILED, error }));
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  /** Sends one batch, retrying network errors, 429 and 5xx with backoff (Retry-After honoured). */
  async send(spans: ReadableSpan[]): Promise<ExportResult> {
    if (spans.length === 0) return { code: ExportResultCode.SUCCESS };
    let serialised: Uint8Array;
    try {
      serialised = encodeTraceExportRequest(spans);
    } catch (err) {
      logger.error(`could not serialise ${spans.length} spans: ${(err as Error)?.message ?? String(err)}`);
      return { code: ExportResultCode.FAILED, error: err as Error };
    }
    const body = this.options.compression === 'gzip' ? await gzip(serialised) : serialised;
    const maxAttempts = this.options.maxAttempts ?? 3;
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    let lastError = '';
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      let retryAfterMs: number | undefined;
      try {
        const res = await this.post(body, timeoutMs);
        if (res.status >= 200 && res.status < 300) return { code: ExportResultCode.SUCCESS };
        lastError = `HTTP ${res.status}: ${res.text.slice(0, 300)}`;
        if (!isRetryableStatus(res.status)) break;
        retryAfterMs = parseRetryAfter(res.retryAfter);
      } catch (err) {
        lastError = (err as Error)?.message ?? String(err);
      }
      if (attempt < maxAttempts) await sleep(retryAfterMs ?? backoffDelay(attempt - 1, { initialDelayMs: this.options.backoffMs ?? 200 }));
    }
    logger.error(`failed to export ${spans.length} spans to ${this.url}: ${lastError}`);
    return { code: ExportResultCode.FAILED, error: new Error(lastError) };
  }

  /** Resolves when every batch handed to `export` has been answered. */
  async forceFlush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  async shutdown(): Promise<void> {
    await this.forceFlush();
    this.stopped = true;
  }
}

/** POST with `fetch` (edge runtimes, browsers, or `useFetch`). */
function fetchPost(url: string, headers: Record<string, string>): Post {
  return async (body, timeoutMs) => {
    const res = await fetch(url, { method: 'POST', headers, body: body as BodyInit, signal: AbortSignal.timeout(timeoutMs) });
    if (res.ok) {
      await res.arrayBuffer().catch(() => undefined);
      return { status: res.status, text: '', retryAfter: null };
    }
    const text = await res.text().catch(() => '');
    return { status: res.status, text, retryAfter: res.headers.get('retry-after') };
  };
}

interface HttpModule {
  Agent: new (options: { keepAlive: boolean }) => Agent;
  request(url: URL, options: RequestOptions, callback: (res: IncomingMessage) => void): import('node:http').ClientRequest;
}

/** Most characters of an error response kept for the log. */
const ERROR_TEXT_MAX = 1000;

/** Redirects followed (307 and 308 within the same origin, as `fetch` would keep the credentials). */
const MAX_REDIRECTS = 5;

/**
 * POST with `node:http` (or `node:https`) over a keep-alive connection, or undefined when it is
 * not there (not Node.js, or a URL that is neither http nor https). The module comes from
 * `process.getBuiltinModule`, so edge bundles never see a Node import. Idle connections do not
 * keep the process alive (Node's agent unrefs free sockets).
 */
function nodePost(url: string, headers: Record<string, string>): Post | undefined {
  if (!isNodeRuntime()) return undefined;
  let target: URL;
  let http: HttpModule | undefined;
  try {
    target = new URL(url);
    const id = target.protocol === 'https:' ? 'node:https' : target.protocol === 'http:' ? 'node:http' : undefined;
    const p = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    http = id ? (p?.getBuiltinModule?.(id) as HttpModule | undefined) : undefined;
  } catch {
    return undefined;
  }
  if (!http) return undefined;
  const mod = http;
  const agent = new mod.Agent({ keepAlive: true });
  const base = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-length'));
  const once = (to: URL, body: Uint8Array, timeoutMs: number) =>
    new Promise<PostResult & { location?: string }>((resolve, reject) => {
      let settled = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle = (err: Error | undefined, result?: PostResult & { location?: string }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(result!);
      };
      const req = mod.request(to, { method: 'POST', agent, headers: { ...base, 'Content-Length': String(body.byteLength) } }, (res) => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (!ok && text.length < ERROR_TEXT_MAX) text += chunk;
        });
        res.on('end', () => {
          const retryAfter = res.headers['retry-after'];
          settle(undefined, { status, text, retryAfter: typeof retryAfter === 'string' ? retryAfter : null, location: res.headers.location });
        });
        res.on('error', settle);
        res.on('close', () => settle(new Error('connection closed before the response ended')));
      });
      req.on('error', settle);
      timer = setTimeout(() => req.destroy(new Error(`request timed out after ${timeoutMs} ms`)), timeoutMs);
      (timer as { unref?: () => void }).unref?.();
      req.end(body);
    });
  return async (body, timeoutMs) => {
    let to = target;
    for (let hop = 0; ; hop++) {
      const res = await once(to, body, timeoutMs);
      if ((res.status === 307 || res.status === 308) && res.location && hop < MAX_REDIRECTS) {
        const next = new URL(res.location, to);
        if (next.origin === target.origin) {
          to = next;
          continue;
        }
      }
      return res;
    }
  };
}

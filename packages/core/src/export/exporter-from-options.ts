/**
 * The OTLP exporter `ObsSpanProcessor` builds from its options and `OBS_*` variables, or none
 * (one warning) when the connection is not configured; and its media uploads, to the same server.
 */
import { basicAuth, type ResolvedConnection, resolveConnection, sdkHeaders } from '../config/connection.js';
import { httpSend } from '../delivery/node-post.js';
import { SDK_VERSION } from '../util/version.js';
import { MediaUploads } from './media/media-uploads.js';
import { withTracingSuppressed as offTrace } from '../tracing/suppress.js';
import { mergeHeaders } from './otlp/headers.js';
import { readEnv } from '../config/env.js';
import { logger } from '../util/logger.js';
import { numberOption, secondsToTimerMs } from '../config/numeric-option.js';
import { resolveCompression } from './otlp/compression.js';
import { DEFAULT_DELIVERY_LIMITS } from '../delivery/sender.js';
import { ObsOtlpExporter } from './otlp/otlp-exporter.js';
import type { ObsSpanProcessorOptions } from './options.js';

/** An `OBS_*` number as given (a bad one is reported by `numberOption`), or undefined when unset. */
export function envNumber(name: string): unknown {
  const raw = readEnv(name)?.trim();
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  return Number.isNaN(n) ? raw : n;
}

/** What the exporter and the media uploads both take from the options, read once (a bad value is said once). */
export interface RequestSettings {
  conn: ResolvedConnection;
  timeoutMs: number;
  backoffMs: number;
  reportEveryMs: number;
}

export function requestSettings(options: ObsSpanProcessorOptions): RequestSettings {
  return {
    conn: resolveConnection(options),
    timeoutMs: secondsToTimerMs(numberOption('timeout', options.timeout ?? envNumber('OBS_TIMEOUT'), 10)),
    backoffMs: numberOption('backoffMs', options.backoffMs, 200),
    reportEveryMs: secondsToTimerMs(numberOption('outageReportInterval', options.outageReportInterval, 30)),
  };
}

/**
 * The media uploads of a processor: to the obs server its spans go to (options, then `OBS_*`),
 * unless `media: false` or the connection is not configured (then media stays in the spans).
 */
export function mediaUploadsFromOptions(options: ObsSpanProcessorOptions, settings: RequestSettings): MediaUploads | undefined {
  const { conn } = settings;
  if (options.media === false || !conn.ok) return undefined;
  const send = httpSend();
  return new MediaUploads({
    baseUrl: conn.baseUrl!,
    headers: mergeHeaders(
      { Authorization: basicAuth(conn.publicKey!, conn.secretKey!), ...sdkHeaders(conn.publicKey!, SDK_VERSION) },
      options.additionalHeaders,
    ),
    // obs's own requests are never traced (an HTTP instrumentation would see the uploads).
    send: (request) => offTrace(() => send(request)),
    timeoutMs: settings.timeoutMs,
    backoffMs: settings.backoffMs,
    reportEveryMs: settings.reportEveryMs,
  });
}

/** `waiting` counts the spans the processor holds before handing them over (for the outage lines). */
export function exporterFromOptions(
  options: ObsSpanProcessorOptions,
  waiting: () => number,
  settings: RequestSettings,
): ObsOtlpExporter | undefined {
  const { conn } = settings;
  if (!conn.ok) {
    const fix = conn.missing.length > 0 ? ' Set them as options or environment variables.' : '';
    logger.warnOnce('missing-connection', `obs is not configured: ${conn.problem}; spans and scores are not sent.${fix}`);
    return undefined;
  }
  return new ObsOtlpExporter({
    baseUrl: conn.baseUrl!,
    publicKey: conn.publicKey!,
    secretKey: conn.secretKey!,
    compression: resolveCompression(options.compression),
    additionalHeaders: options.additionalHeaders,
    timeoutMs: settings.timeoutMs,
    delivery: {
      backoffMs: settings.backoffMs,
      retryBudgetMs: secondsToTimerMs(numberOption('retryBudget', options.retryBudget, 60, { allowZero: true })),
      maxBufferBytes: numberOption('maxBufferBytes', options.maxBufferBytes, DEFAULT_DELIVERY_LIMITS.maxBufferBytes, { integer: true }),
      maxConcurrent: numberOption('maxConcurrentExports', options.maxConcurrentExports, 4, { integer: true, max: 64 }),
    },
    outageReportEveryMs: settings.reportEveryMs,
    waiting,
  });
}

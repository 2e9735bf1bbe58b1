/**
 * The OTLP exporter `ObsSpanProcessor` builds from its options and `OBS_*` variables, or none
 * (one warning) when the connection is not configured.
 */
import { resolveConnection } from '../config/connection.js';
import { readEnv } from '../config/env.js';
import { logger } from '../util/logger.js';
import { numberOption, secondsToTimerMs } from '../config/numeric-option.js';
import { resolveCompression } from './otlp/compression.js';
import { DEFAULT_DELIVERY_LIMITS } from '../delivery/delivery-queue.js';
import { ObsOtlpExporter } from './otlp/otlp-exporter.js';
import type { ObsSpanProcessorOptions } from './options.js';

/** An `OBS_*` number as given (a bad one is reported by `numberOption`), or undefined when unset. */
export function envNumber(name: string): unknown {
  const raw = readEnv(name)?.trim();
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  return Number.isNaN(n) ? raw : n;
}

/** `waiting` counts the spans the processor holds before handing them over (for the outage lines). */
export function exporterFromOptions(options: ObsSpanProcessorOptions, waiting?: () => number): ObsOtlpExporter | undefined {
  const conn = resolveConnection(options);
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
    timeoutMs: secondsToTimerMs(numberOption('timeout', options.timeout ?? envNumber('OBS_TIMEOUT'), 10)),
    delivery: {
      backoffMs: numberOption('backoffMs', options.backoffMs, 200),
      retryBudgetMs: secondsToTimerMs(numberOption('retryBudget', options.retryBudget, 60, { allowZero: true })),
      maxBufferBytes: numberOption('maxBufferBytes', options.maxBufferBytes, DEFAULT_DELIVERY_LIMITS.maxBufferBytes, { integer: true }),
      maxConcurrent: numberOption('maxConcurrentExports', options.maxConcurrentExports, 4, { integer: true, max: 64 }),
    },
    outageReportEveryMs: secondsToTimerMs(numberOption('outageReportInterval', options.outageReportInterval, 30)),
    waiting,
  });
}

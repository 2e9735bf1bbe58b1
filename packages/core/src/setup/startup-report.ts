/**
 * What `initObs` says when it starts: at the default level one line (obs is on, and where spans
 * go; or the processor's warning of what is missing); with `OBS_DEBUG=1` or `initObs({ debug: true })` a diagnosis of
 * the whole set-up, once, so a silent set-up explains itself.
 */
import type { TracerProvider } from '@opentelemetry/api';
import { resolveConnection } from '../config/connection.js';
import { resolveCompression } from '../export/otlp/compression.js';
import type { ObsSpanProcessorOptions } from '../export/span-processor.js';
import { logger, logLevelEnabled } from '../util/logger.js';
import { contextManagerActive, describeProvider } from './provider-info.js';

/** What `initObs` decided, for the report. */
export interface StartupFacts {
  mode: 'registered' | 'attached' | 'isolated';
  exporting: boolean;
  /** The provider that was registered before obs, if any. */
  foreign: TracerProvider | undefined;
  options: ObsSpanProcessorOptions;
  /** The span processor's batching as resolved (undefined while it exports nothing). */
  batching?: { immediate: boolean; flushAt: number; flushIntervalMs: number };
}

const MODE_TEXT: Record<StartupFacts['mode'], string> = {
  registered: 'obs registered its own tracer provider',
  attached: 'obs attached its span processor to the registered tracer provider',
  isolated: 'obs spans use an isolated provider (other tracers are not exported)',
};

export function reportStartup(facts: StartupFacts): void {
  const conn = resolveConnection(facts.options);
  // Without configuration the span processor's one warning ("obs is not configured: missing ...")
  // is the start-up line.
  if (facts.exporting) logger.notice(`on: exporting to ${conn.baseUrl} (${MODE_TEXT[facts.mode]}; OBS_DEBUG=1 explains more)`);
  logDiagnosis(facts, conn);
}

function logDiagnosis(facts: StartupFacts, conn: ReturnType<typeof resolveConnection>): void {
  if (!logLevelEnabled('debug')) return;
  const o = facts.options;
  const lines = [
    `base URL: ${conn.baseUrl ?? (conn.missing.length > 0 ? 'missing (OBS_BASE_URL)' : conn.problem)}`,
    `public key: ${conn.publicKey ?? 'missing (OBS_PUBLIC_KEY)'}; secret key: ${conn.secretKey ? `set (${conn.secretKey.slice(0, 3)}...${conn.secretKey.slice(-4)})` : 'missing (OBS_SECRET_KEY)'}`,
    `mode: ${facts.mode} (${MODE_TEXT[facts.mode]}); provider found before obs: ${describeProvider(facts.foreign)}`,
    `async context manager: ${contextManagerActive() ? 'active' : 'NOT active: observations will not nest across await'}`,
    `export filter: ${o.shouldExportSpan ? 'custom shouldExportSpan' : 'default (obs spans, gen_ai.* spans, known LLM scopes, spans started inside obs observations)'}`,
    `export: ${exportLine(facts.batching)}, compression ${resolveCompression(o.compression)}`,
  ];
  for (const line of lines) logger.debug(`diagnosis: ${line}`);
}

function exportLine(batching: StartupFacts['batching']): string {
  if (!batching) return 'off (not configured)';
  if (batching.immediate) return 'immediate (every span as it ends)';
  return `batched, flushAt ${batching.flushAt} spans, flushInterval ${batching.flushIntervalMs / 1000} s`;
}

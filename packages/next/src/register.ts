import { flushSoon } from '@obs/core/http';
import { getObsHandle, initObs, type ObsHandle } from '@obs/core';
import { logger } from '@obs/core/kit';
import { nextExportFilter } from './export-filter.js';
import { guard } from './guard.js';
import type { RegisterObsOptions } from './options.js';
import { NextSpanReparenter } from './reparent.js';
import { RequestEndFlusher } from './request-end-flush.js';
import { isBuildPhase, isEdgeRuntime } from './runtime.js';

/**
 * Sets obs tracing up for a Next.js server; call it from `register()` in `instrumentation.ts`.
 *
 * Node.js runtime: core's `initObs` (gzip export, async context, flush on exit). Edge runtime: the same
 * fetch-based exporter, uncompressed (contract 9.2). Idempotent across dev reloads; does nothing during
 * `next build`; without keys or base URL it warns once and exports nothing. Never throws.
 *
 * @example
 * ```ts
 * // instrumentation.ts
 * import { registerObs } from '@obs/next';
 * export function register() { registerObs(); }
 * export { onRequestError } from '@obs/next';
 * ```
 */
export function registerObs(options: RegisterObsOptions = {}): ObsHandle | undefined {
  return guard.run(() => register(options), undefined, 'the app runs without tracing');
}

/** `registerObs` unguarded. */
function register(options: RegisterObsOptions): ObsHandle | undefined {
  if (isBuildPhase()) return undefined;
  const existing = getObsHandle();
  if (existing) {
    logger.debug('registerObs: obs is already initialised; reusing it');
    return existing;
  }
  const { keepNextSpans = false, flushAfterResponse = true, shouldExportSpan, ...init } = options;
  const edge = isEdgeRuntime();
  const handle = initObs({
    ...init,
    // The edge has no process signals (its `process` throws on use) and sends uncompressed (contract 9.2).
    ...(edge ? { compression: 'none', flushOnExit: false } : {}),
    shouldExportSpan: nextExportFilter({ keepNextSpans, shouldExportSpan }),
    // Only on a provider obs creates: one someone else owns (`@vercel/otel`, Sentry) exports
    // Next.js spans elsewhere, and re-parenting must not touch those.
    spanProcessors: [
      ...(keepNextSpans ? [] : [new NextSpanReparenter()]),
      ...(flushAfterResponse ? [new RequestEndFlusher(flushActiveHandle)] : []),
    ],
  });
  return handle;
}

/** The obs handle, initialising with defaults when nothing did (route handlers without `instrumentation.ts`). */
export function ensureObs(): ObsHandle | undefined {
  return getObsHandle() ?? registerObs();
}

function flushActiveHandle(): Promise<void> {
  const handle = getObsHandle();
  return handle ? flushSoon(handle) : Promise.resolve();
}

/** obs's own requests and compression are never traced: the export must not export itself. */
import { context, ROOT_CONTEXT } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';

/** Runs `fn` with tracing suppressed: instrumentations of HTTP or zlib must not trace the export's own work. */
export function offTrace<T>(fn: () => Promise<T>): Promise<T> {
  return context.with(suppressTracing(ROOT_CONTEXT), fn);
}

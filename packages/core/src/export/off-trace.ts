/** obs's own requests and compression are never traced: the export must not export itself. */
import { withTracingSuppressed } from '../tracing/suppress.js';

/** Runs `fn` with tracing suppressed: instrumentations of HTTP or zlib must not trace the export's own work. */
export function offTrace<T>(fn: () => Promise<T>): Promise<T> {
  return withTracingSuppressed(fn);
}

import { isDefaultExportSpan, type ObsSpanProcessorOptions } from '@obs/core';
import { isNextSpan } from './next-spans.js';

type ShouldExportSpan = NonNullable<ObsSpanProcessorOptions['shouldExportSpan']>;

/**
 * The export filter of `registerObs`: the user's filter (default: core's `isDefaultExportSpan`), minus
 * Next.js's infrastructure spans unless `keepNextSpans`. Core's default would export Next spans that
 * start inside an obs observation (a `fetch` in a route handler), which is noise in an LLM trace view.
 */
export function nextExportFilter(options: { keepNextSpans?: boolean; shouldExportSpan?: ShouldExportSpan }): ShouldExportSpan {
  const base: ShouldExportSpan = options.shouldExportSpan ?? (({ otelSpan }) => isDefaultExportSpan(otelSpan));
  if (options.keepNextSpans) return (params) => isNextSpan(params.otelSpan) || base(params);
  return (params) => !isNextSpan(params.otelSpan) && base(params);
}

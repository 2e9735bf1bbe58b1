/**
 * The default export filter (`isDefaultExportSpan`) and the mark it reads: spans started inside
 * obs work.
 */
import type { ReadableSpan } from '../../tracing/sdk-types.js';
import { IN_OBS_TRACE } from '../../tracing/span-slots.js';
import { SDK_TRACER_NAME } from '../../util/version.js';
import { isFrameworkScope, isLlmScope } from '../../tracing/scopes.js';

/** Marks a span as started inside an obs observation or `propagateAttributes` (done at span start). */
export function markInObsTrace(span: object): void {
  (span as { [IN_OBS_TRACE]?: true })[IN_OBS_TRACE] = true;
}

/**
 * The default export filter: spans of the `obs-sdk` scope, spans with a `gen_ai.` attribute or
 * an `openinference.span.kind`, spans of known LLM instrumentation scopes (OpenInference's among them), and spans started inside an obs observation or
 * `propagateAttributes` (your own OpenTelemetry spans within a traced request), except framework
 * and APM spans (`FRAMEWORK_SCOPE_PREFIXES`; see the `frameworkSpans` option). Compose it in a
 * custom `shouldExportSpan`.
 */
export function isDefaultExportSpan(span: ReadableSpan): boolean {
  const scope = span.instrumentationScope?.name ?? '';
  if (scope === SDK_TRACER_NAME) return true;
  if (isLlmScope(scope)) return true;
  // APM agents mirror LLM calls with gen_ai attributes of their own (Sentry's AI integrations):
  // the LLM library's own spans are the obs ones.
  if (isFrameworkScope(scope)) return false;
  if ((span as { [IN_OBS_TRACE]?: true })[IN_OBS_TRACE] === true) return true;
  if (span.attributes['openinference.span.kind'] !== undefined) return true;
  for (const key in span.attributes) if (key.startsWith('gen_ai.')) return true;
  return false;
}

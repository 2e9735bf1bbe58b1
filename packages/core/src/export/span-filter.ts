import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SDK_TRACER_NAME } from '../version.js';

/** Instrumentation scopes (exact names) of LLM libraries whose spans belong in an LLM trace view. */
export const KNOWN_LLM_SCOPES = ['ai', 'langsmith', 'litellm', 'haystack', 'mastra', 'gen_ai'] as const;

/** Instrumentation scope prefixes of LLM instrumentations (OpenInference, OpenLLMetry, OTel GenAI). */
export const KNOWN_LLM_SCOPE_PREFIXES = [
  'openinference.',
  '@arizeai/openinference',
  '@traceloop/',
  'opentelemetry.instrumentation.openai',
  '@opentelemetry/instrumentation-openai',
  '@opentelemetry/instrumentation-genai',
  '@elastic/opentelemetry-instrumentation-openai',
] as const;

/**
 * Instrumentation scope prefixes of web frameworks and APM agents: their spans (`GET /x`,
 * `middleware - …`, `request handler`) are not obs observations, even inside a traced request.
 */
export const FRAMEWORK_SCOPE_PREFIXES = [
  '@opentelemetry/instrumentation-',
  '@sentry/',
  '@fastify/otel',
  '@vercel/otel',
  'next.js',
  '@prisma/instrumentation',
  'dd-trace',
] as const;

/** Whether a scope is an LLM library's or LLM instrumentation's. */
export function isLlmScope(scope: string): boolean {
  if ((KNOWN_LLM_SCOPES as readonly string[]).includes(scope)) return true;
  for (const prefix of KNOWN_LLM_SCOPE_PREFIXES) if (scope.startsWith(prefix)) return true;
  return false;
}

/** Whether a scope is a framework or APM instrumentation's (LLM instrumentations are not). */
export function isFrameworkScope(scope: string): boolean {
  if (isLlmScope(scope)) return false;
  for (const prefix of FRAMEWORK_SCOPE_PREFIXES) if (scope.startsWith(prefix)) return true;
  return false;
}

/** A property on the span, not a WeakSet: a WeakSet entry per span is a hash insert plus ephemeron work in every GC. */
const IN_OBS_TRACE = Symbol('obs.inTrace');

/** Marks a span as started inside an obs observation or `propagateAttributes` (done at span start). */
export function markInObsTrace(span: object): void {
  (span as { [IN_OBS_TRACE]?: true })[IN_OBS_TRACE] = true;
}

/**
 * The default export filter: spans of the `obs-sdk` scope, spans with a `gen_ai.` attribute,
 * spans of known LLM instrumentation scopes, and spans started inside an obs observation or
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
  for (const key in span.attributes) if (key.startsWith('gen_ai.')) return true;
  return false;
}

/** Whether a span started inside an obs observation or `propagateAttributes`. */
export function isInObsTrace(span: object): boolean {
  return (span as { [IN_OBS_TRACE]?: true })[IN_OBS_TRACE] === true;
}

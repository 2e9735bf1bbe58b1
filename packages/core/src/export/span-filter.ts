import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { IN_OBS_TRACE } from '../tracing/span-slots.js';
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

const LLM = 1;
const FRAMEWORK = 2;
/**
 * What each scope name is, decided once: every span start and end asks, and a process has a
 * handful of scopes. Bounded, in case an app makes scope names per request.
 */
const scopeKinds = new Map<string, number>();

function scopeKind(scope: string): number {
  let kind = scopeKinds.get(scope);
  if (kind === undefined) {
    kind = 0;
    if ((KNOWN_LLM_SCOPES as readonly string[]).includes(scope) || KNOWN_LLM_SCOPE_PREFIXES.some((p) => scope.startsWith(p))) kind = LLM;
    else if (FRAMEWORK_SCOPE_PREFIXES.some((p) => scope.startsWith(p))) kind = FRAMEWORK;
    if (scopeKinds.size >= 1000) scopeKinds.clear();
    scopeKinds.set(scope, kind);
  }
  return kind;
}

/** Whether a scope is an LLM library's or LLM instrumentation's. */
export function isLlmScope(scope: string): boolean {
  return scopeKind(scope) === LLM;
}

/** Whether a scope is a framework or APM instrumentation's (LLM instrumentations are not). */
export function isFrameworkScope(scope: string): boolean {
  return scopeKind(scope) === FRAMEWORK;
}

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

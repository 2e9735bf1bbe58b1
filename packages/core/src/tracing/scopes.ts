/**
 * The instrumentation scopes obs knows by name: LLM libraries and instrumentations (their spans
 * are obs observations) and web frameworks and APM agents (their spans are not). A leaf, read by
 * the export filter, the span enricher and the isolated mode's LLM tracer bridge.
 */
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

/**
 * OpenTelemetry's "suppress tracing" context flag, the standard way to tell every instrumentation
 * (OpenTelemetry's http, undici and fetch ones, Sentry's) not to record what runs inside: obs sets
 * it around its own HTTP requests. The key is the SDK's own (`createContextKey` interns its
 * description), so the SDK's `isTracingSuppressed` of either line reads what obs sets, and back.
 */
import { createContextKey, type Context } from '@opentelemetry/api';

const SUPPRESS_TRACING_KEY = createContextKey('OpenTelemetry SDK Context Key SUPPRESS_TRACING');

/** `context` with tracing suppressed. */
export function suppressTracing(context: Context): Context {
  return context.setValue(SUPPRESS_TRACING_KEY, true);
}

/** Whether tracing is suppressed in `context`. */
export function isTracingSuppressed(context: Context): boolean {
  return context.getValue(SUPPRESS_TRACING_KEY) === true;
}

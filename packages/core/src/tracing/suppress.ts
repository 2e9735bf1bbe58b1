/**
 * Keeps obs's own HTTP requests (span export, scores, API calls, media downloads) out of every
 * trace. The standard way is OpenTelemetry's "suppress tracing" context flag, which OpenTelemetry's
 * http, undici and fetch instrumentations and Sentry's OpenTelemetry-based SDK (10) honour; its key
 * is the SDK's own (`createContextKey` interns its description), so either SDK line reads what obs
 * sets. A Sentry SDK running without OpenTelemetry (Sentry 11's default) reads only its own flag,
 * which `Sentry.suppressTracing` sets on a forked scope: obs sets it the same way, through the
 * global carrier every Sentry SDK shares, so obs needs no Sentry import.
 */
import { context, createContextKey, ROOT_CONTEXT, type Context } from '@opentelemetry/api';

const SUPPRESS_TRACING_KEY = createContextKey('OpenTelemetry SDK Context Key SUPPRESS_TRACING');
/** Sentry's scope metadata key for the same flag (`@sentry/core`'s `suppressTracing`). */
const SENTRY_SUPPRESS_TRACING_KEY = '__SENTRY_SUPPRESS_TRACING__';

/** `context` with tracing suppressed. */
export function suppressTracing(ctx: Context): Context {
  return ctx.setValue(SUPPRESS_TRACING_KEY, true);
}

/** Whether tracing is suppressed in `context`. */
export function isTracingSuppressed(ctx: Context): boolean {
  return ctx.getValue(SUPPRESS_TRACING_KEY) === true;
}

/**
 * Runs `fn` (an obs request) outside the app's trace with tracing suppressed, for OpenTelemetry
 * instrumentations and for Sentry.
 */
export function withTracingSuppressed<T>(fn: () => T): T {
  return context.with(suppressTracing(ROOT_CONTEXT), () => withSentrySuppressed(fn));
}

interface SentryAsyncContext {
  /** Present when Sentry runs on OpenTelemetry: it then honours the OpenTelemetry flag already set. */
  suppressTracing?: unknown;
  withScope?: <T>(callback: (scope: { setSDKProcessingMetadata?: (data: Record<string, unknown>) => void }) => T) => T;
}

function withSentrySuppressed<T>(fn: () => T): T {
  let acs: SentryAsyncContext | undefined;
  try {
    const carrier = (globalThis as { __SENTRY__?: Record<string, { acs?: SentryAsyncContext }> & { version?: unknown } }).__SENTRY__;
    acs = typeof carrier?.version === 'string' ? carrier[carrier.version]?.acs : undefined;
  } catch {
    acs = undefined;
  }
  if (!acs || acs.suppressTracing || typeof acs.withScope !== 'function') return fn();
  let ran = false;
  try {
    return acs.withScope((scope) => {
      try {
        scope.setSDKProcessingMetadata?.({ [SENTRY_SUPPRESS_TRACING_KEY]: true });
      } catch {
        // A scope of another shape: the request runs unsuppressed for Sentry, as before.
      }
      ran = true;
      return fn();
    });
  } catch (err) {
    if (ran) throw err;
    return fn();
  }
}

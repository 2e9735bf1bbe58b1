/**
 * What tracing set-up obs found in the process, for the start-up diagnosis: which tracer
 * provider is registered (Sentry, `@vercel/otel`, a plain `NodeTracerProvider`) and whether an
 * async context manager is active.
 */
import { context, createContextKey, type TracerProvider } from '@opentelemetry/api';

/** A readable name for a registered provider, from its class and its processors' classes. */
export function describeProvider(provider: TracerProvider | undefined): string {
  if (!provider) return 'none';
  const p = provider as { constructor?: { name?: string }; _activeSpanProcessor?: { _spanProcessors?: unknown[] } };
  const processors = (p._activeSpanProcessor?._spanProcessors ?? []).map(
    (sp) => (sp as { constructor?: { name?: string } })?.constructor?.name || '?',
  );
  const names = [p.constructor?.name || 'TracerProvider', ...processors].join(' ');
  const g = globalThis as { __SENTRY__?: unknown };
  // Bundlers that minify (Next.js) leave class names empty.
  const kind = p.constructor?.name || 'its tracer provider';
  if (/sentry/i.test(names) || g.__SENTRY__ !== undefined) return `Sentry (${kind})`;
  if (/vercel/i.test(names) || (globalThis as Record<symbol, unknown>)[Symbol.for('@vercel/otel')] !== undefined)
    return `@vercel/otel (${kind})`;
  const list = processors.length ? ` with ${processors.join(', ')}` : '';
  return `${p.constructor?.name || 'a tracer provider'}${list}`;
}

/** Whether a value set in a context survives `context.with` (an async context manager is active). */
export function contextManagerActive(): boolean {
  const key = createContextKey('obs.diagnosis.probe');
  return context.with(context.active().setValue(key, true), () => context.active().getValue(key) === true);
}

/** The major version of the Sentry SDK loaded in the process, if any (from Sentry's global carrier). */
function sentryMajor(): number | undefined {
  const version = (globalThis as { __SENTRY__?: { version?: unknown } }).__SENTRY__?.version;
  const major = typeof version === 'string' ? Number.parseInt(version, 10) : Number.NaN;
  return Number.isFinite(major) ? major : undefined;
}

/** What to change so that obs can attach to `provider` instead of running isolated beside it. */
export function attachFix(provider: TracerProvider): string {
  if (!describeProvider(provider).startsWith('Sentry')) return 'add ObsSpanProcessor to your provider';
  return (sentryMajor() ?? 10) >= 11
    ? "leave Sentry's enableOpenTelemetrySetup off (its default)"
    : 'pass openTelemetrySpanProcessors: [new ObsSpanProcessor()] to Sentry.init()';
}

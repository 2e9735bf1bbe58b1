/** Instrumentation scope of the spans Next.js makes itself. */
export const NEXT_SCOPE = 'next.js';

type ScopedSpan = {
  instrumentationScope?: { name?: string };
  /** OpenTelemetry SDK 1.x name of the same field. */
  instrumentationLibrary?: { name?: string };
};

/** Whether a span (SDK span or ReadableSpan) was made by Next.js itself. */
export function isNextSpan(span: unknown): boolean {
  if (!span || typeof span !== 'object') return false;
  const s = span as ScopedSpan;
  return (s.instrumentationScope?.name ?? s.instrumentationLibrary?.name) === NEXT_SCOPE;
}

/**
 * The status a Next.js control-flow throw stands for (`redirect()`, `notFound()`, `forbidden()`,
 * `unauthorized()`, dynamic-usage bail-outs): these are how Next answers, not failures, so the request's
 * observation must not be marked as an error. Undefined for a real error.
 */
export function controlFlowStatus(error: unknown): number | undefined {
  const digest = (error as { digest?: unknown } | null)?.digest;
  if (typeof digest !== 'string') return undefined;
  if (digest.startsWith('NEXT_REDIRECT;')) {
    // NEXT_REDIRECT;<type>;<url>;<status>;  (the url may itself contain ';')
    const parts = digest.split(';');
    const status = Number(parts[parts.length - 2]);
    return Number.isInteger(status) ? status : 307;
  }
  if (digest.startsWith('NEXT_HTTP_ERROR_FALLBACK;')) {
    const status = Number(digest.split(';')[1]);
    return Number.isInteger(status) ? status : 404;
  }
  if (digest === 'NEXT_NOT_FOUND') return 404;
  if (digest === 'DYNAMIC_SERVER_USAGE' || digest === 'BAILOUT_TO_CLIENT_SIDE_RENDERING') return 200;
  return undefined;
}

const RECORDED = Symbol.for('obs.next.recorded_errors');

function recorded(): WeakSet<object> {
  const g = globalThis as { [RECORDED]?: WeakSet<object> };
  return (g[RECORDED] ??= new WeakSet<object>());
}

/**
 * Remembers that an error is already on an observation (a `withObs` root), so `onRequestError`, which
 * Next calls with the same error afterwards, does not record it twice. Global so that the copies of this
 * package bundled into the route and into `instrumentation.ts` agree.
 */
export function markErrorRecorded(error: unknown): void {
  if (typeof error === 'object' && error !== null) recorded().add(error);
}

/** Whether `markErrorRecorded` saw this error. */
export function isErrorRecorded(error: unknown): boolean {
  return typeof error === 'object' && error !== null && recorded().has(error);
}

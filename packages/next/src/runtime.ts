/** The Next.js build phase: nothing may export or open connections then. */
export const PHASE_PRODUCTION_BUILD = 'phase-production-build';

/** Whether `next build` is running (routes may be prerendered; no tracing then). */
export function isBuildPhase(): boolean {
  return env('NEXT_PHASE') === PHASE_PRODUCTION_BUILD;
}

/**
 * Whether this code runs on the edge runtime. `process.env.NEXT_RUNTIME` is written out literally so
 * Next's compiler inlines it (and drops the other branch); `EdgeRuntime` covers unbundled code.
 */
export function isEdgeRuntime(): boolean {
  let runtime: string | undefined;
  try {
    runtime = process.env.NEXT_RUNTIME;
  } catch {
    runtime = undefined;
  }
  return runtime === 'edge' || typeof (globalThis as { EdgeRuntime?: unknown }).EdgeRuntime !== 'undefined';
}

function env(name: string): string | undefined {
  try {
    return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  } catch {
    return undefined;
  }
}

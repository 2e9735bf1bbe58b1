/** Bindings given to `initObs({ env })` (a Cloudflare Worker's `env`), read before `process.env`. */
let bindings: Record<string, unknown> | undefined;

/**
 * Sets the source of `OBS_*`/`OTEL_*` settings read before `process.env` (each `initObs` sets its
 * own, none by default): a Worker's `env` bindings, which reach code only through its handlers'
 * arguments. Values that are not strings (KV namespaces, service bindings) are not settings and
 * are ignored.
 */
export function useEnvBindings(env: Record<string, unknown> | undefined): void {
  bindings = env && typeof env === 'object' ? env : undefined;
}

/** Reads an environment variable: `initObs({ env })`'s bindings, then `process.env` where there is one (not browsers, edge-safe). */
export function readEnv(name: string, options?: { raw?: boolean }): string | undefined {
  try {
    const bound = bindings?.[name];
    const value =
      typeof bound === 'string' ? bound : (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
    // Trimmed: a trailing newline from a secret file would otherwise break every request header.
    const v = options?.raw ? value : value?.trim();
    return v === undefined || v === '' ? undefined : v;
  } catch {
    return undefined;
  }
}

/** Reads a positive number from the environment; anything else is `undefined`. */
export function readEnvNumber(name: string): number | undefined {
  // Unset reads as NaN, which is no positive number either.
  const n = Number(readEnv(name));
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

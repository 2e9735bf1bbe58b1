/** Reads an environment variable on runtimes that have `process.env` (not browsers, edge-safe). */
export function readEnv(name: string, options?: { raw?: boolean }): string | undefined {
  try {
    const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
    // Trimmed: a trailing newline from a secret file would otherwise break every request header.
    const v = options?.raw ? value : value?.trim();
    return v === undefined || v === '' ? undefined : v;
  } catch {
    return undefined;
  }
}

/** Reads a positive number from the environment; anything else is `undefined`. */
export function readEnvNumber(name: string): number | undefined {
  const v = readEnv(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

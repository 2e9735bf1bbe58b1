/** Reads an environment variable on runtimes that have `process.env` (not browsers, edge-safe). */
export function readEnv(name: string): string | undefined {
  try {
    // Trimmed: a trailing newline from a secret file would otherwise break every request header.
    const v = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name]?.trim();
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

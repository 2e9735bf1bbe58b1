/**
 * Keeps keys out of `console.log` / `util.inspect`: objects that hold the secret key (or the
 * Basic header made of it) print a summary where the secret shows as `sk-...XXXX`.
 */

/** Node's `util.inspect.custom` symbol, by its registered name (no `node:util` import: edge-safe). */
export const INSPECT_CUSTOM: unique symbol = Symbol.for('nodejs.util.inspect.custom') as never;

/** `sk-...` plus the last 4 characters; short secrets show only the dots. */
export function maskSecret(secret: string | undefined): string | undefined {
  if (secret === undefined || secret === '') return secret;
  const head = secret.startsWith('sk-') ? 'sk-' : '';
  return secret.length >= 12 ? `${head}...${secret.slice(-4)}` : `${head}...`;
}

/** What a custom inspect method returns: `name { ...summary }`, formatted by Node when it can. */
export function inspectSummary(
  name: string,
  summary: Record<string, unknown>,
  options?: unknown,
  inspect?: (v: unknown, o?: unknown) => string,
): string {
  return `${name} ${typeof inspect === 'function' ? inspect(summary, options) : JSON.stringify(summary)}`;
}

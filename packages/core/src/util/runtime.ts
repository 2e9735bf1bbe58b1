/** Which kind of JavaScript runtime this is, decided in one place. */

/**
 * True on Node.js, Bun and Deno (their Node.js APIs are whole), false on edge runtimes and
 * browsers. Cloudflare Workers with `nodejs_compat` report a Node.js version too, but their
 * `node:http` and `node:zlib` are emulations over `fetch` and bound to one request: obs uses the
 * web APIs there.
 */
export function isNodeRuntime(): boolean {
  const g = globalThis as { process?: { versions?: { node?: string } }; EdgeRuntime?: unknown };
  return typeof g.EdgeRuntime === 'undefined' && !isWorkerd() && typeof g.process?.versions?.node === 'string';
}

/** Cloudflare's `workerd` (Workers, `wrangler dev`, miniflare), which says so in `navigator.userAgent`. */
export function isWorkerd(): boolean {
  const nav = (globalThis as { navigator?: { userAgent?: unknown } }).navigator;
  return typeof nav?.userAgent === 'string' && nav.userAgent.startsWith('Cloudflare-Workers');
}

const builtinModules = new Map<string, unknown>();

/**
 * A Node.js built-in (`node:http`, `node:zlib`, ...) on Node.js, Bun and Deno, looked up with
 * `process.getBuiltinModule` when first needed and kept; undefined on other runtimes or when the
 * lookup is refused (edge runtimes, Next.js's among them, throw when it is even touched). Never
 * an import, so edge bundles see no Node.js module and a cold start loads none it does not use.
 */
export function nodeBuiltin<T>(id: string): T | undefined {
  if (builtinModules.has(id)) return builtinModules.get(id) as T | undefined;
  let mod: unknown;
  try {
    if (isNodeRuntime()) mod = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(id);
  } catch {
    mod = undefined;
  }
  builtinModules.set(id, mod);
  return mod as T | undefined;
}

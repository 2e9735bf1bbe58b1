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

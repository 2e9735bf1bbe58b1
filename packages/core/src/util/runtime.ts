/** Which kind of JavaScript runtime this is, decided in one place. */

/** True on Node.js and Bun, false on edge runtimes and browsers. */
export function isNodeRuntime(): boolean {
  const g = globalThis as { process?: { versions?: { node?: string } }; EdgeRuntime?: unknown };
  return typeof g.EdgeRuntime === 'undefined' && typeof g.process?.versions?.node === 'string';
}

/**
 * A fresh score id. Setting one client-side makes a retried batch idempotent on the server,
 * and the create answer returns none (contract 2.2). `undefined` where no Web Crypto exists.
 */
export function newScoreId(): string | undefined {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  return typeof c?.randomUUID === 'function' ? c.randomUUID() : undefined;
}

/**
 * Backoff and `Retry-After` arithmetic: which statuses are worth another attempt, how long a
 * server asks to wait, and exponential backoff with jitter. The policy that uses them, for
 * everything obs sends, is `delivery/retry-policy.ts`.
 */

/** Exponential backoff settings; tests shorten them. */
export interface BackoffOptions {
  /** Wait before the first retry, in ms (doubled each retry). */
  initialDelayMs?: number;
  /** Ceiling of a computed wait, in ms. */
  maxDelayMs?: number;
}

export const DEFAULT_BACKOFF: Required<BackoffOptions> = { initialDelayMs: 500, maxDelayMs: 10_000 };

/** A server's `Retry-After` is honoured up to this, so one bad header cannot stall a flush for hours. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Statuses worth another attempt: the server may answer differently later. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** `Retry-After` as delta-seconds or an HTTP date, in ms; `undefined` when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, now = Date.now()): number | undefined {
  if (header == null) return undefined;
  const raw = header.trim();
  if (raw === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.min(Number(raw) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(raw);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
}

/** Wait before retry number `attempt` (0-based): exponential with jitter so clients spread out. */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const initial = options.initialDelayMs ?? DEFAULT_BACKOFF.initialDelayMs;
  const max = options.maxDelayMs ?? DEFAULT_BACKOFF.maxDelayMs;
  const exp = Math.min(max, initial * 2 ** attempt);
  return exp / 2 + Math.random() * (exp / 2);
}

/**
 * Comparing secrets (the API keys, the viewer token) in constant time: digests of both sides are
 * compared, so neither a secret's characters nor its length leak through how long a refusal takes.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** Whether two secrets are equal, in time that depends on neither. */
export function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * Basic auth of the public API: how a request authenticated against the server's keys (compared
 * in constant time), and what a refused one is told.
 */
import type { RequestAuth } from '../types.js';
import { sameSecret } from './secrets.js';

/** Who may call an API route: `secret` (Basic publicKey:secretKey), `public` (the public key alone is enough too), `none`. */
export type RouteAuth = 'secret' | 'public' | 'none';

/** Classifies the Authorization header against the server's keys. */
export function parseAuth(header: string | undefined, publicKey: string, secretKey: string): RequestAuth {
  if (!header) return 'none';
  const match = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (!match) return 'invalid';
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'invalid';
  const user = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  // Both compared whatever the first gives, in constant time: a refusal's timing tells nothing.
  const knownUser = sameSecret(user, publicKey);
  const secret = sameSecret(password, secretKey);
  if (!knownUser) return 'invalid';
  if (secret) return 'secret';
  if (password === '') return 'public-only';
  return 'invalid';
}

/** Whether a request that authenticated as `auth` may call a route that needs `needed`. */
export function authorized(needed: RouteAuth, auth: RequestAuth): boolean {
  return needed === 'none' || auth === 'secret' || (needed === 'public' && auth === 'public-only');
}

/** Why a request without the right credentials is refused, by what it sent. */
export function authError(auth: RequestAuth): string {
  if (auth === 'none') return 'Missing Authorization header (expected Basic auth with publicKey:secretKey)';
  if (auth === 'public-only') return 'This endpoint requires the secret key';
  return 'Invalid credentials: Basic auth must be publicKey:secretKey';
}

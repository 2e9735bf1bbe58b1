/**
 * What one attempt came to, decided in one place for every kind (spans, scores, media, API
 * calls): delivered, worth a retry (an outage), too large (split it), or refused for good (a
 * permanent error: never retried, so it fails fast instead of holding a flush for a minute). What
 * is delivered in the background (`answerOutcome`, `failureOutcome`) and an API call, whose
 * caller hears the answer (`callOutcome`), read a few answers apart.
 */
import { isRetryableStatus, parseRetryAfter } from '../util/retry.js';
import type { PostResult } from './post.js';

export type SendOutcome =
  | { kind: 'delivered' }
  /**
   * Worth another attempt (network error, timeout, 401, 408, 429, 5xx). `unanswered`: the body
   * may have reached the server (a timeout, a connection lost mid-request), unlike a refused
   * connection or an error status.
   */
  | { kind: 'retry'; reason: string; retryAfterMs?: number; unanswered?: boolean }
  /** 413: split and resend. */
  | { kind: 'too-large'; reason: string }
  /**
   * Permanent: another 4xx, a certificate error, a host that never resolved. Dropped, not
   * retried; `holdMs`: later batches are refused for that long without a request (the same
   * handshake or lookup would fail again).
   */
  | { kind: 'refused'; reason: string; holdMs?: number };

/** What a 404 says: the one setting to check. */
const NOT_FOUND_REASON =
  "the server answers HTTP 404 (no obs server there): check OBS_BASE_URL, the obs server's root address without /api/public";

/** How long a certificate error or a name that does not resolve refuses later batches without a request. */
export const HOST_REFUSAL_HOLD_MS = 5_000;

/** How an HTTP answer is read: `keysHint` is the reason given for a 401. */
export function answerOutcome(res: PostResult, keysHint: string): SendOutcome {
  if (res.status >= 200 && res.status < 300) return { kind: 'delivered' };
  const text = res.text.slice(0, 300);
  if (res.status === 413) return { kind: 'too-large', reason: `HTTP 413: ${text}` };
  // Keys can be fixed or rotated while the app runs (a secret mounted late): an outage, not a refusal.
  if (res.status === 401) return { kind: 'retry', reason: keysHint };
  // A base URL with no obs server behind it (or a path below one): only the configuration can fix it.
  if (res.status === 404) return { kind: 'refused', reason: NOT_FOUND_REASON };
  if (isRetryableStatus(res.status)) return { kind: 'retry', reason: `HTTP ${res.status}`, retryAfterMs: parseRetryAfter(res.retryAfter) };
  return { kind: 'refused', reason: `the server refused them (HTTP ${res.status}: ${text})` };
}

/**
 * What an attempt of an API call means: a 2xx is delivered; 408, 429 and 5xx are retried (after
 * `Retry-After`); any other answer is the caller's, 401 included (a call is not an outage that
 * rotated keys may end); a request without an answer is retried unless `final` (its own timeout,
 * its caller's abort).
 */
export function callOutcome(tried: { answer?: PostResult; error?: unknown }, final: boolean): SendOutcome {
  const res = tried.answer;
  if (res === undefined) {
    const reason = networkReason(tried.error);
    return final ? { kind: 'refused', reason } : { kind: 'retry', reason };
  }
  if (res.status >= 200 && res.status < 300) return { kind: 'delivered' };
  if (isRetryableStatus(res.status)) return { kind: 'retry', reason: `HTTP ${res.status}`, retryAfterMs: parseRetryAfter(res.retryAfter) };
  return { kind: 'refused', reason: `HTTP ${res.status}` };
}

/** `ECONNREFUSED`, `timeout (...)`, ...: the short reason of a failed request. */
export function networkReason(err: unknown): string {
  const code = errorCode(err);
  if (code !== undefined) return code;
  const e = err as { message?: unknown } | undefined;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  return /timed out|timeout/i.test(message) ? `timeout (${message})` : message;
}

/**
 * A request that got no HTTP answer. Certificate and TLS errors are permanent (a retry makes the
 * same handshake). A host name that does not resolve (`ENOTFOUND`) is permanent while the host
 * was never reached since start (a typo, a name that does not exist), and an outage once it
 * answered before (a DNS hiccup); `EAI_AGAIN` is always an outage. Anything else is an outage.
 */
export function failureOutcome(err: unknown, reachedBefore: boolean): SendOutcome {
  const reason = networkReason(err);
  const code = errorCode(err);
  if (code !== undefined && isTlsFailure(code)) {
    return {
      kind: 'refused',
      reason: `the TLS connection failed (${code}): check the server's certificate or OBS_BASE_URL's scheme`,
      holdMs: HOST_REFUSAL_HOLD_MS,
    };
  }
  if (code === 'ENOTFOUND' && !reachedBefore) {
    return { kind: 'refused', reason: `the host name does not resolve (${code}): check OBS_BASE_URL`, holdMs: HOST_REFUSAL_HOLD_MS };
  }
  return { kind: 'retry', reason, unanswered: !NEVER_SENT.has(code ?? '') };
}

/** Network errors that mean the request never reached the server. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL']);

function errorCode(err: unknown): string | undefined {
  try {
    const e = err as { code?: unknown; cause?: { code?: unknown } } | undefined;
    const code = e?.code ?? e?.cause?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** OpenSSL's certificate codes, Node's `ERR_TLS_*`/`ERR_SSL_*`, and `EPROTO` (TLS to a plain-HTTP port). */
function isTlsFailure(code: string): boolean {
  return (
    code === 'EPROTO' ||
    code.startsWith('ERR_TLS_') ||
    code.startsWith('ERR_SSL_') ||
    /CERT|SELF_SIGNED|SIGNATURE|ISSUER|HOSTNAME_MISMATCH/.test(code)
  );
}

/**
 * One POST of a request body, as every delivery kind sends it: the shape of an answer, and the
 * `fetch` transport (edge runtimes, browsers, a `fetch` given in the options). Free of Node.js
 * built-ins, so the browser build can use it; `node-post.ts` has the `node:http` one.
 */
import { unref } from '../util/unref.js';

/** What the delivery queue needs of an answer. */
export interface PostResult {
  status: number;
  /** The start of the body: of an error, for its log line; of a 207, for what it rejected. Empty on 200. */
  text: string;
  retryAfter: string | null;
}

/** One POST of a body; rejects on a network failure or a timeout, resolves with any HTTP answer. */
export type Post = (body: Uint8Array, timeoutMs: number, signal: AbortSignal) => Promise<PostResult>;

/** Most characters of an answer's body kept (an error's text, a 207's list of rejections). */
export const ANSWER_TEXT_MAX = 64 * 1024;

/** Whether the body of an answer with `status` is read (a plain 200 carries nothing obs needs). */
export function keepsText(status: number): boolean {
  return status !== 200 && status !== 202 && status !== 204;
}

/** POST with `fetch` (edge runtimes, browsers, or a `fetch` of the user's). */
export function fetchPost(url: string, headers: Record<string, string>, doFetch: typeof fetch = fetch): Post {
  return async (body, timeoutMs, signal) => {
    const res = await doFetch(url, { method: 'POST', headers, body: body as BodyInit, signal: withTimeout(signal, timeoutMs) });
    if (!keepsText(res.status)) {
      await res.arrayBuffer().catch(() => undefined);
      return { status: res.status, text: '', retryAfter: null };
    }
    const text = await res.text().catch(() => '');
    return { status: res.status, text: text.slice(0, ANSWER_TEXT_MAX), retryAfter: res.headers.get('retry-after') };
  };
}

/** One request of any method with `fetch`, its answer's body read up to `ANSWER_TEXT_MAX` (the media upload's). */
export async function fetchSend(
  request: { method: string; url: string; headers: Record<string, string>; body?: Uint8Array; timeoutMs: number; signal: AbortSignal },
  doFetch: typeof fetch = fetch,
): Promise<PostResult> {
  const { method, url, headers, body, timeoutMs, signal } = request;
  const res = await doFetch(url, { method, headers, body: body as BodyInit | undefined, signal: withTimeout(signal, timeoutMs) });
  const text = await res.text().catch(() => '');
  return { status: res.status, text: text.slice(0, ANSWER_TEXT_MAX), retryAfter: res.headers.get('retry-after') };
}

/** `signal` that also aborts after `timeoutMs`; without `AbortSignal.any` (some edge runtimes) by hand. */
function withTimeout(signal: AbortSignal, timeoutMs: number): AbortSignal {
  if (typeof AbortSignal.any === 'function' && typeof AbortSignal.timeout === 'function') {
    return AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
  }
  const controller = new AbortController();
  unref(setTimeout(() => controller.abort(new Error(`request timed out after ${timeoutMs} ms`)), timeoutMs));
  signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  return controller.signal;
}

import type { Agent, IncomingMessage, RequestOptions } from 'node:http';
import { isNodeRuntime } from '../../util/runtime.js';

/** What the exporter needs of an answer. */
export interface PostResult {
  status: number;
  /** The start of the body, for error messages (empty on success). */
  text: string;
  retryAfter: string | null;
}

/** One POST of a body; rejects on a network failure or a timeout, resolves with any HTTP answer. */
export type Post = (body: Uint8Array, timeoutMs: number, signal: AbortSignal) => Promise<PostResult>;

/**
 * The exporter's transport: `node:http`/`node:https` with keep-alive connections on Node.js (a
 * quarter of `fetch`'s CPU per request), `fetch` on other runtimes or when `useFetch` is set.
 */
export function httpPost(url: string, headers: Record<string, string>, useFetch = false): Post {
  return (!useFetch && nodePost(url, headers)) || fetchPost(url, headers);
}

/** `ECONNREFUSED`, `timeout`, ...: the short reason of a failed request. */
export function networkReason(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown } } | undefined;
  const code = e?.code ?? e?.cause?.code;
  if (typeof code === 'string') return code;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  return /timed out|timeout/i.test(message) ? `timeout (${message})` : message;
}

/** POST with `fetch` (edge runtimes, browsers, or `useFetch`). */
function fetchPost(url: string, headers: Record<string, string>): Post {
  return async (body, timeoutMs, signal) => {
    const res = await fetch(url, { method: 'POST', headers, body: body as BodyInit, signal: withTimeout(signal, timeoutMs) });
    if (res.ok) {
      await res.arrayBuffer().catch(() => undefined);
      return { status: res.status, text: '', retryAfter: null };
    }
    const text = await res.text().catch(() => '');
    return { status: res.status, text, retryAfter: res.headers.get('retry-after') };
  };
}

/** `signal` that also aborts after `timeoutMs`; without `AbortSignal.any` (some edge runtimes) by hand. */
function withTimeout(signal: AbortSignal, timeoutMs: number): AbortSignal {
  if (typeof AbortSignal.any === 'function' && typeof AbortSignal.timeout === 'function') {
    return AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`request timed out after ${timeoutMs} ms`)), timeoutMs);
  (timer as { unref?: () => void }).unref?.();
  signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  return controller.signal;
}

interface HttpModule {
  Agent: new (options: { keepAlive: boolean }) => Agent;
  request(url: URL, options: RequestOptions, callback: (res: IncomingMessage) => void): import('node:http').ClientRequest;
}

/** Most characters of an error response kept for the log. */
const ERROR_TEXT_MAX = 1000;

/** Redirects followed (307 and 308 within the same origin, as `fetch` would keep the credentials). */
const MAX_REDIRECTS = 5;

/**
 * POST with `node:http` (or `node:https`) over a keep-alive connection, or undefined when it is
 * not there (not Node.js, or a URL that is neither http nor https). The module comes from
 * `process.getBuiltinModule`, so edge bundles never see a Node import. Idle connections do not
 * keep the process alive (Node's agent unrefs free sockets).
 */
function nodePost(url: string, headers: Record<string, string>): Post | undefined {
  if (!isNodeRuntime()) return undefined;
  let target: URL;
  let http: HttpModule | undefined;
  try {
    target = new URL(url);
    const id = target.protocol === 'https:' ? 'node:https' : target.protocol === 'http:' ? 'node:http' : undefined;
    const p = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    http = id ? (p?.getBuiltinModule?.(id) as HttpModule | undefined) : undefined;
  } catch {
    return undefined;
  }
  if (!http) return undefined;
  const mod = http;
  const agent = new mod.Agent({ keepAlive: true });
  const base = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-length'));
  const once = (to: URL, body: Uint8Array, timeoutMs: number, signal: AbortSignal) =>
    new Promise<PostResult & { location?: string }>((resolve, reject) => {
      let settled = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle = (err: Error | undefined, result?: PostResult & { location?: string }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(result!);
      };
      const req = mod.request(to, { method: 'POST', agent, headers: { ...base, 'Content-Length': String(body.byteLength) } }, (res) => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (!ok && text.length < ERROR_TEXT_MAX) text += chunk;
        });
        res.on('end', () => {
          const retryAfter = res.headers['retry-after'];
          settle(undefined, {
            status,
            text,
            retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
            location: res.headers.location,
          });
        });
        res.on('error', settle);
        res.on('close', () => settle(new Error('connection closed before the response ended')));
      });
      req.on('error', settle);
      const onAbort = () => req.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      req.on('close', () => signal.removeEventListener('abort', onAbort));
      timer = setTimeout(() => req.destroy(new Error(`request timed out after ${timeoutMs} ms`)), timeoutMs);
      (timer as { unref?: () => void }).unref?.();
      req.end(body);
    });
  return async (body, timeoutMs, signal) => {
    let to = target;
    for (let hop = 0; ; hop++) {
      const res = await once(to, body, timeoutMs, signal);
      if ((res.status === 307 || res.status === 308) && res.location && hop < MAX_REDIRECTS) {
        const next = new URL(res.location, to);
        if (next.origin === target.origin) {
          to = next;
          continue;
        }
      }
      return res;
    }
  };
}

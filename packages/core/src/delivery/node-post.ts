/**
 * The `node:http`/`node:https` transport of every delivery kind on Node.js: keep-alive
 * connections (a quarter of `fetch`'s CPU per request), and sockets that never keep the process
 * alive: idle ones are unref'd by Node's agent, busy ones by us, so a script whose own work is
 * done reaches `beforeExit` (where the bounded exit flush waits for them) even while a request
 * hangs. Other runtimes, or a `fetch` of the user's, go through `fetchPost`.
 */
import type { Agent, IncomingMessage, RequestOptions } from 'node:http';
import { isNodeRuntime } from '../util/runtime.js';
import { ANSWER_TEXT_MAX, fetchPost, keepsText, type Post, type PostResult } from './post.js';

/** `node:http` on Node.js unless `doFetch` is given; `fetch` elsewhere. */
export function httpPost(url: string, headers: Record<string, string>, doFetch?: typeof fetch): Post {
  return (!doFetch && nodePost(url, headers)) || fetchPost(url, headers, doFetch);
}

interface HttpModule {
  Agent: new (options: { keepAlive: boolean }) => Agent;
  request(url: URL, options: RequestOptions, callback: (res: IncomingMessage) => void): import('node:http').ClientRequest;
}

/** Redirects followed (307 and 308 within the same origin, as `fetch` would keep the credentials). */
const MAX_REDIRECTS = 5;

/**
 * POST with `node:http` (or `node:https`) over a keep-alive connection, or undefined when it is
 * not there (not Node.js, or a URL that is neither http nor https). The module comes from
 * `process.getBuiltinModule`, so edge bundles never see a Node import.
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
        const keep = keepsText(status);
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (keep && text.length < ANSWER_TEXT_MAX) text += chunk;
        });
        res.on('end', () => {
          const retryAfter = res.headers['retry-after'];
          settle(undefined, {
            status,
            text: text.slice(0, ANSWER_TEXT_MAX),
            retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
            location: res.headers.location,
          });
        });
        res.on('error', settle);
        res.on('close', () => settle(new Error('connection closed before the response ended')));
      });
      req.on('error', settle);
      // A request in flight must not hold the process open: the exit flush, which a script
      // reaches once its own work is done, waits for it within its deadline instead.
      req.on('socket', (socket) => socket.unref());
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

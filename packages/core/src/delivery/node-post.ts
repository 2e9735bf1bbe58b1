/**
 * The `node:http`/`node:https` transport of every delivery kind on Node.js: keep-alive
 * connections (a quarter of `fetch`'s CPU per request), and sockets that never keep the process
 * alive: idle ones are unref'd by Node's agent, busy ones by us, so a script whose own work is
 * done reaches `beforeExit` (where the bounded exit flush waits for them) even while a request
 * hangs. Other runtimes, or a `fetch` of the user's, go through `fetchPost`. `httpSend` makes
 * requests of any method to any URL the same way (the media upload's).
 */
import type { Agent, IncomingMessage, RequestOptions } from 'node:http';
import { isNodeRuntime, nodeBuiltin } from '../util/runtime.js';
import { ANSWER_TEXT_MAX, fetchPost, fetchSend, keepsText, type Post, type PostResult } from './post.js';
import { unref } from '../util/unref.js';

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

/** `node:http` or `node:https` for `url`'s scheme when this is Node.js, else undefined (another runtime or scheme). */
function nodeModuleId(url: URL): 'node:http' | 'node:https' | undefined {
  if (!isNodeRuntime()) return undefined;
  return url.protocol === 'https:' ? 'node:https' : url.protocol === 'http:' ? 'node:http' : undefined;
}

/** The `node:http` or `node:https` module for `url`'s scheme, or undefined (not Node.js, another scheme, refused). */
function httpModuleFor(url: URL): HttpModule | undefined {
  const id = nodeModuleId(url);
  return id ? nodeBuiltin<HttpModule>(id) : undefined;
}

/**
 * POST with `node:http` (or `node:https`) over a keep-alive connection, or undefined when it is
 * not there (not Node.js, or a URL that is neither http nor https). The module comes from
 * `process.getBuiltinModule` on the first POST (not at start: loading `node:http` is ~3 ms of a
 * cold start, better paid after the first answer), so edge bundles never see a Node import.
 */
function nodePost(url: string, headers: Record<string, string>): Post | undefined {
  let target: URL;
  try {
    target = new URL(url);
    if (!nodeModuleId(target)) return undefined;
  } catch {
    return undefined;
  }
  let agent: Agent | undefined;
  let viaFetch: Post | undefined;
  const base = withoutLength(headers);
  return async (body, timeoutMs, signal) => {
    // Looked up at the first POST; a runtime that refuses it sends through fetch instead.
    const mod = httpModuleFor(target);
    if (!mod) return (viaFetch ??= fetchPost(url, headers))(body, timeoutMs, signal);
    agent ??= new mod.Agent({ keepAlive: true });
    let to = target;
    for (let hop = 0; ; hop++) {
      const res = await requestOnce(mod, agent, { method: 'POST', to, headers: base, body, timeoutMs, signal, readAll: false });
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

/** One request of any method to any URL: the media upload's ask, upload and report. */
export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  timeoutMs: number;
  signal: AbortSignal;
}

/** Sends a request; resolves with any HTTP answer (its body read up to `ANSWER_TEXT_MAX`), rejects on a network failure or timeout. */
export type Send = (request: HttpRequest) => Promise<PostResult>;

/**
 * Requests to any URL: `node:http(s)` with one keep-alive agent per scheme on Node.js (sockets
 * unref'd as the POSTs'), `fetch` elsewhere or when `doFetch` is given. Redirects are not followed.
 */
export function httpSend(doFetch?: typeof fetch): Send {
  const agents = new Map<HttpModule, Agent>();
  return async (request) => {
    const to = new URL(request.url);
    const mod = doFetch ? undefined : httpModuleFor(to);
    if (!mod) return fetchSend(request, doFetch ?? fetch);
    let agent = agents.get(mod);
    if (!agent) agents.set(mod, (agent = new mod.Agent({ keepAlive: true })));
    return requestOnce(mod, agent, { ...request, to, headers: withoutLength(request.headers), readAll: true });
  };
}

interface OnceOptions extends Omit<HttpRequest, 'url'> {
  to: URL;
  /** Read the body of every answer (not only of errors). */
  readAll: boolean;
}

function requestOnce(mod: HttpModule, agent: Agent, o: OnceOptions): Promise<PostResult & { location?: string }> {
  const { body, signal, timeoutMs } = o;
  return new Promise((resolve, reject) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = (err: Error | undefined, result?: PostResult & { location?: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(result!);
    };
    const headers = body ? { ...o.headers, 'Content-Length': String(body.byteLength) } : o.headers;
    const req = mod.request(o.to, { method: o.method, agent, headers }, (res) => {
      const status = res.statusCode ?? 0;
      const keep = o.readAll || keepsText(status);
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
    req.on('socket', (socket) => unref(socket));
    const onAbort = () => req.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    req.on('close', () => signal.removeEventListener('abort', onAbort));
    timer = unref(setTimeout(() => req.destroy(new Error(`request timed out after ${timeoutMs} ms`)), timeoutMs));
    req.end(body);
  });
}

function withoutLength(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-length'));
}

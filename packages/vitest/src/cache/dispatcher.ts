/**
 * Recording and replaying below `fetch`: Node.js's `fetch` sends every request through undici's
 * global dispatcher, read at each call, so wrapping that dispatcher catches the calls of a model
 * client made before `@obs/vitest` was imported, or at a test module's top level, whichever
 * `fetch` it kept (the OpenAI, Anthropic and Google GenAI SDKs and the AI SDK all call `fetch`).
 * Only calls made inside an eval item (see ./scope.ts) are touched, and never obs's own.
 *
 * The wrapper speaks both handler protocols undici has had (`onHeaders`/`onData`/`onComplete`,
 * the `fetch` of Node.js 22 and 24; `onResponseStart`/`onResponseData`/`onResponseEnd`, undici 8's)
 * and wraps both global slots: `undici.globalDispatcher.1`, which `fetch` reads up to undici 7,
 * and `undici.globalDispatcher.2`, which undici 8 reads (it puts an adapter to the old protocol in
 * the first).
 */
import { errorMessage, logger, resolveConnection } from '@obs/core/kit';
import type { RecordedResponse } from './cassette.js';
import { describeCall, type KeyedRequest, keyRequest } from './request-key.js';
import { recordedResponse, responseBytes } from './response.js';
import { activeCacheScope, type CacheScope } from './scope.js';

const GLOBAL_DISPATCHERS = [Symbol.for('undici.globalDispatcher.1'), Symbol.for('undici.globalDispatcher.2')];
const WRAPPED = Symbol.for('obs.vitest.evalCacheDispatcher');

type Handler = Record<string, ((...args: never[]) => unknown) | unknown>;
interface DispatchOptions {
  origin?: string | URL;
  path: string;
  method: string;
  body?: unknown;
  headers?: unknown;
  [key: string]: unknown;
}
interface Dispatcher {
  dispatch(options: DispatchOptions, handler: Handler): boolean;
  [key: string | symbol]: unknown;
}

/** Statuses a retry answers differently: never recorded (a replay would wait out the SDK's backoff). */
const TRANSIENT = (status: number) => status === 408 || status === 429 || status >= 500;

/**
 * Wraps undici's global dispatchers (again, when something replaced one since: loading another
 * undici does). Safe to call any number of times; without Node.js's `fetch` it does nothing.
 */
export function ensureDispatcherWrapped(): void {
  const g = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  // Reading `Headers` loads Node.js's undici, which makes the global dispatcher.
  void (globalThis as { Headers?: unknown }).Headers;
  for (const slot of GLOBAL_DISPATCHERS) {
    const current = g[slot];
    if (current && typeof current.dispatch === 'function' && !current[WRAPPED]) g[slot] = wrap(current);
  }
}

function wrap(inner: Dispatcher): Dispatcher {
  const dispatch = (options: DispatchOptions, handler: Handler): boolean => {
    const scope = activeCacheScope();
    if (!scope || isObsTraffic(options.origin)) return inner.dispatch(options, handler);
    intercept(inner, scope, options, handler).catch((err: unknown) => fail(handler, err));
    return true;
  };
  return new Proxy(inner, {
    get(target, prop) {
      if (prop === 'dispatch') return dispatch;
      if (prop === WRAPPED) return true;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function intercept(inner: Dispatcher, scope: CacheScope, options: DispatchOptions, handler: Handler): Promise<void> {
  const body = await bodyBytes(options.body);
  const url = new URL(options.path, String(options.origin)).toString();
  const request = keyRequest(options.method, url, body);
  if (scope.mode !== 'record') {
    const recorded = scope.cassette.take(request);
    if (recorded) {
      scope.counts.replayed++;
      return replay(handler, recorded);
    }
    if (scope.mode === 'replay') {
      const message = `OBS_EVAL_CACHE=replay: no recorded answer for ${describeCall(request)} in ${scope.cassette.file} (record it with OBS_EVAL_CACHE=record or auto)`;
      scope.misses.push(message);
      scope.counts.missed++;
      // An answer the SDKs do not retry, carrying the reason, so the task fails at once and says why.
      return replay(handler, {
        status: 404,
        statusText: 'Not Recorded',
        headers: { 'content-type': 'application/json' },
        json: { error: { message } },
      });
    }
  }
  const sent = { ...options, body: body ?? null, headers: withIdentityEncoding(options.headers) };
  inner.dispatch(sent, recording(handler, request, scope));
}

/** Forwards every callback to `handler`, keeping a copy of the answer; a complete, lasting answer is recorded. */
function recording(handler: Handler, request: KeyedRequest, scope: CacheScope): Handler {
  let status = 0;
  let statusText: string | undefined;
  let headers: Array<[string, string]> = [];
  const chunks: Buffer[] = [];
  const done = () => {
    if (status === 0 || TRANSIENT(status)) return;
    try {
      scope.cassette.put(request, recordedResponse(status, statusText, headers, Buffer.concat(chunks)));
      scope.counts.recorded++;
    } catch (err) {
      // The answer still reaches the task; only the cassette goes without it.
      logger.error(`OBS_EVAL_CACHE=${scope.mode}: ${describeCall(request)} was not recorded: ${errorMessage(err)}`);
    }
  };
  const started = (code: unknown, text: unknown, pairs: () => Array<[string, string]>) => {
    // 1xx answers come before the real one.
    if ((code as number) < 200) return;
    status = code as number;
    statusText = text as string | undefined;
    headers = pairs();
  };
  const data = (chunk: unknown) => chunks.push(Buffer.from(chunk as Uint8Array));
  const forward =
    (name: string, before: (...args: unknown[]) => void) =>
    (...args: unknown[]) => {
      before(...args);
      return call(handler, name, ...args);
    };
  const overrides: Record<string, (...args: unknown[]) => unknown> = {
    // The old protocol (the fetch of Node.js 22 and 24).
    onHeaders: forward('onHeaders', (code, raw, _resume, text) => started(code, text, () => rawPairs(raw))),
    onData: forward('onData', data),
    onComplete: forward('onComplete', done),
    // The new protocol (undici 8).
    onResponseStart: forward('onResponseStart', (_controller, code, hdrs, text) => started(code, text, () => objectPairs(hdrs))),
    onResponseData: forward('onResponseData', (_controller, chunk) => data(chunk)),
    onResponseEnd: forward('onResponseEnd', done),
  };
  return new Proxy(handler, {
    get(target, prop) {
      if (typeof prop === 'string' && prop in overrides && typeof target[prop] === 'function') return overrides[prop];
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Plays a recorded answer to the handler, in whichever protocol it speaks. */
function replay(handler: Handler, response: RecordedResponse): void {
  const bytes = responseBytes(response);
  const headers = { ...response.headers, 'content-length': String(bytes.byteLength) };
  const raw = Object.entries(headers).flatMap(([n, v]) => [Buffer.from(n), Buffer.from(v)]);
  const statusText = response.statusText ?? '';
  if (typeof handler['onResponseStart'] === 'function') {
    // undici 8's fetch reads the headers from the controller's raw list when there is one.
    const controller = replayController(raw);
    call(handler, 'onRequestStart', controller, {});
    if (controller.aborted) return;
    call(handler, 'onResponseStarted');
    call(handler, 'onResponseStart', controller, response.status, headers, statusText);
    if (controller.aborted) return;
    if (bytes.byteLength > 0) call(handler, 'onResponseData', controller, bytes);
    if (!controller.aborted) call(handler, 'onResponseEnd', controller, {});
    return;
  }
  let aborted = false;
  call(handler, 'onConnect', () => {
    aborted = true;
  });
  if (aborted) return;
  call(handler, 'onResponseStarted');
  call(handler, 'onHeaders', response.status, raw, () => {}, statusText);
  if (aborted) return;
  if (bytes.byteLength > 0) call(handler, 'onData', bytes);
  if (!aborted) call(handler, 'onComplete', []);
}

function replayController(rawHeaders: Buffer[] = []) {
  return {
    rawHeaders,
    aborted: false,
    paused: false,
    reason: null as unknown,
    abort(reason: unknown) {
      this.aborted = true;
      this.reason = reason;
    },
    pause() {
      this.paused = true;
    },
    resume() {
      this.paused = false;
    },
  };
}

function fail(handler: Handler, err: unknown): void {
  const error = err instanceof Error ? err : new Error(String(err));
  if (typeof handler['onResponseError'] === 'function') call(handler, 'onResponseError', replayController(), error);
  else call(handler, 'onError', error);
}

function call(handler: Handler, name: string, ...args: unknown[]): unknown {
  const fn = handler[name];
  return typeof fn === 'function' ? (fn as (...a: unknown[]) => unknown).apply(handler, args) : undefined;
}

/** obs's own requests (the API client's `fetch`) go out untouched. */
function isObsTraffic(origin: string | URL | undefined): boolean {
  const base = resolveConnection().baseUrl;
  if (!base || origin === undefined) return false;
  try {
    return new URL(String(origin)).origin === new URL(base).origin;
  } catch {
    return false;
  }
}

/** The request body as bytes (fetch hands an async iterable; other callers strings or buffers). */
async function bodyBytes(body: unknown): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (
    typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function' ||
    typeof (body as Iterable<unknown>)[Symbol.iterator] === 'function'
  ) {
    const chunks: Buffer[] = [];
    for await (const chunk of body as AsyncIterable<unknown>) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk as Uint8Array));
    }
    return Buffer.concat(chunks);
  }
  throw new TypeError(`OBS_EVAL_CACHE cannot read a request body of type ${Object.prototype.toString.call(body)}`);
}

/** The request's headers with `accept-encoding: identity`, so what is recorded is the plain answer. */
function withIdentityEncoding(headers: unknown): unknown {
  if (headers === undefined || headers === null) return { 'accept-encoding': 'identity' };
  if (Array.isArray(headers)) {
    const out: unknown[] = [];
    for (let i = 0; i < headers.length; i += 2) {
      if (String(headers[i]).toLowerCase() !== 'accept-encoding') out.push(headers[i], headers[i + 1]);
    }
    return [...out, 'accept-encoding', 'identity'];
  }
  if (typeof headers === 'object' && !(Symbol.iterator in headers)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() !== 'accept-encoding') out[k] = v;
    out['accept-encoding'] = 'identity';
    return out;
  }
  return headers;
}

function rawPairs(raw: unknown): Array<[string, string]> {
  const list = Array.isArray(raw) ? raw : [];
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < list.length; i += 2) out.push([String(list[i]), String(list[i + 1])]);
  return out;
}

function objectPairs(headers: unknown): Array<[string, string]> {
  if (!headers || typeof headers !== 'object') return [];
  return Object.entries(headers as Record<string, unknown>).flatMap(([n, v]) =>
    Array.isArray(v) ? v.map((x): [string, string] => [n, String(x)]) : [[n, String(v)]],
  );
}

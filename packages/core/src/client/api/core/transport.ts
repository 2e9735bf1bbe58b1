/**
 * The one function every API method goes through: `fetch` (so it runs on Node, edge and in
 * browsers), a timeout per attempt, and retries on network errors, 408, 429 and 5xx, honouring
 * `Retry-After`, by a `Sender` of requests (`delivery/sender.ts`: the same retry policy and wire
 * as everything else obs sends, with `outcome.ts`'s verdict for a call). What is the API's own:
 * the URL, the JSON bodies, the typed errors.
 */
import { ObsApiError, ObsApiTimeoutError } from './errors.js';
import { INSPECT_CUSTOM, inspectSummary } from '../../../util/secret-inspect.js';
import { redactUrlCredentials } from '../../../util/url-credentials.js';
import { DEFAULT_BACKOFF, type BackoffOptions } from '../../../util/retry.js';
import type { ApiCall, RequestOptions } from './types.js';
import { buildUrl, invalidPathParam } from './url.js';
import { MAX_TIMER_MS } from '../../../config/numeric-option.js';
import { callOutcome } from '../../../delivery/outcome.js';
import type { PostResult } from '../../../delivery/post.js';
import { Sender } from '../../../delivery/sender.js';
import { nonNegativeInteger, positive } from '../../util/numbers.js';

/** How a `Transport` reaches the server; built once per client. */
export interface TransportConfig {
  /** Base URL without trailing slash; `undefined` means the client is not configured. */
  baseUrl: string | undefined;
  /** Auth and SDK headers sent on every call. */
  headers: Record<string, string>;
  /** Why calls are refused when `baseUrl` is undefined (shown in the error). */
  notConfiguredReason?: string;
  /** Default timeout of one attempt, in seconds. */
  timeoutInSeconds: number;
  /** Default retries after the first attempt. */
  maxRetries: number;
  backoff?: BackoffOptions;
  /** Replacement for the global `fetch` (edge runtimes, proxies, tests). */
  fetch?: typeof fetch;
  /** Runs each request (the server client: with tracing suppressed, so no instrumentation records it). */
  around?: <T>(request: () => T) => T;
}

/** Marks a body that is not the JSON it should be (the text kept for the error). */
class NotJson {
  constructor(readonly text: string) {}
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return new NotJson(text);
  }
}

/** The message of a failed fetch (and its cause), without any URL's user name or password. */
function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    return redactUrlCredentials(cause instanceof Error ? `${err.message} (${cause.message})` : err.message);
  }
  return redactUrlCredentials(String(err));
}

export class Transport {
  readonly #config: TransportConfig;
  /** Retries each call on its own; its waits keep the process alive (the caller awaits them). */
  readonly #sender: Sender;

  constructor(config: TransportConfig) {
    this.#config = config;
    this.#sender = new Sender({
      unit: 'calls',
      keysHint: '',
      holdsProcess: true,
      limits: {
        retryBudgetMs: Number.POSITIVE_INFINITY,
        backoffMs: config.backoff?.initialDelayMs ?? DEFAULT_BACKOFF.initialDelayMs,
        maxBackoffMs: config.backoff?.maxDelayMs ?? DEFAULT_BACKOFF.maxDelayMs,
      },
    });
  }

  /** Never prints the Basic header (it holds the secret key). */
  [INSPECT_CUSTOM](_depth: number, options: unknown, inspect?: (v: unknown, o?: unknown) => string): string {
    return inspectSummary(
      'ObsApiTransport',
      { baseUrl: this.#config.baseUrl, authorization: this.#config.headers?.authorization ? 'Basic [REDACTED]' : undefined },
      options,
      inspect,
    );
  }

  /** Sends `call`; resolves with the parsed body of a 2xx answer, rejects with a typed error. */
  async request<T>(call: ApiCall, options: RequestOptions = {}): Promise<T> {
    const badPath = invalidPathParam(call.name, call.path);
    if (badPath) throw badPath;
    const { baseUrl } = this.#config;
    if (baseUrl === undefined) {
      throw new ObsApiError(`${call.name} was not sent: ${this.#config.notConfiguredReason ?? 'the obs client is not configured'}`);
    }
    const opts = options ?? {};
    const timeoutInSeconds = positive(opts.timeoutInSeconds) ?? this.#config.timeoutInSeconds;
    const maxRetries = nonNegativeInteger(opts.maxRetries) ?? this.#config.maxRetries;
    let url: string;
    try {
      url = buildUrl(baseUrl, call.path, call.query);
    } catch (err) {
      throw new TypeError(`${call.name}: ${(err as Error).message}; nothing was sent`);
    }
    const headers: Record<string, string> = { ...this.#config.headers, accept: 'application/json' };
    let body: string | undefined;
    if (call.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(call.body);
    }
    const caller = opts.abortSignal;
    const end = await this.#sender.send({
      maxAttempts: maxRetries + 1,
      signal: caller,
      send: (signal) => this.attempt(call, url, { method: call.method, headers, body }, timeoutInSeconds, [signal, caller]),
      read: (tried) => callOutcome(tried, tried.error instanceof ObsApiTimeoutError || caller?.aborted === true),
    });
    if (end.ok) {
      const parsed = parseBody(end.answer!.text);
      // A proxy's HTML page or a cut body is not a result: never hand it on as one.
      if (parsed instanceof NotJson) {
        throw new ObsApiError(
          `${call.name} got HTTP ${end.answer!.status} with a body that is not JSON: ${JSON.stringify(parsed.text.slice(0, 200))}`,
          { statusCode: end.answer!.status, body: parsed.text },
        );
      }
      return parsed as T;
    }
    if (end.answer) {
      const parsed = parseBody(end.answer.text);
      throw new ObsApiError(`${call.name} failed with HTTP ${end.answer.status}`, {
        statusCode: end.answer.status,
        body: parsed instanceof NotJson ? parsed.text : parsed,
      });
    }
    if (end.error instanceof ObsApiTimeoutError || caller?.aborted) throw end.error;
    throw new ObsApiError(`${call.name} failed: ${describe(end.error)}`, { cause: end.error });
  }

  /** One fetch, body included, under one timeout; aborted by either signal. */
  private async attempt(
    call: ApiCall,
    url: string,
    init: { method: string; headers: Record<string, string>; body: string | undefined },
    timeoutInSeconds: number,
    signals: (AbortSignal | undefined)[],
  ): Promise<PostResult> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        controller.abort();
      },
      Math.min(MAX_TIMER_MS, timeoutInSeconds * 1000),
    );
    const listeners = signals.flatMap((signal) => {
      if (!signal) return [];
      const listener = () => controller.abort(signal.reason);
      if (signal.aborted) listener();
      else signal.addEventListener('abort', listener, { once: true });
      return [() => signal.removeEventListener('abort', listener)];
    });
    try {
      const doFetch = this.#config.fetch ?? fetch;
      const request = () => doFetch(url, { ...init, signal: controller.signal });
      const response = await (this.#config.around ? this.#config.around(request) : request());
      const text = await response.text();
      return { status: response.status, text, retryAfter: response.headers.get('retry-after') };
    } catch (err) {
      if (timedOut) throw new ObsApiTimeoutError(call.name, timeoutInSeconds);
      throw err;
    } finally {
      clearTimeout(timer);
      for (const remove of listeners) remove();
    }
  }
}

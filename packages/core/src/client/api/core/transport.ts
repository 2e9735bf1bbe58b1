import { ObsApiError, ObsApiTimeoutError } from './errors.js';
import { INSPECT_CUSTOM, inspectSummary } from '../../../util/secret-inspect.js';
import { redactUrlCredentials } from '../../../util/url-credentials.js';
import { backoffDelay, isRetryableStatus, parseRetryAfter, sleep, type BackoffOptions } from '../../../util/retry.js';
import type { ApiCall, RequestOptions } from './types.js';
import { buildUrl, invalidPathParam } from './url.js';
import { MAX_TIMER_MS } from '../../../config/numeric-option.js';
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

/** The answer of one attempt, body already read. */
interface Answer {
  status: number;
  ok: boolean;
  retryAfter: string | null;
  body: unknown;
}

/** Marks a body that is not the JSON it should be (the text kept for the error). */
class NotJson {
  constructor(readonly text: string) {}
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
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

/**
 * The one function every API method goes through: fetch (so it runs on Node, edge and in
 * browsers), a timeout per attempt, and retries with exponential backoff and jitter on network
 * errors, 408, 429 and 5xx, honouring `Retry-After`.
 */
export class Transport {
  readonly #config: TransportConfig;

  constructor(config: TransportConfig) {
    this.#config = config;
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

    for (let attempt = 0; ; attempt++) {
      let answer: Answer;
      try {
        answer = await this.attempt(call, url, { method: call.method, headers, body }, timeoutInSeconds, opts.abortSignal);
      } catch (err) {
        if (err instanceof ObsApiTimeoutError || opts.abortSignal?.aborted) throw err;
        if (attempt >= maxRetries) {
          throw new ObsApiError(`${call.name} failed: ${describe(err)}`, { cause: err });
        }
        await sleep(backoffDelay(attempt, this.#config.backoff), opts.abortSignal);
        continue;
      }
      if (answer.ok) {
        // A proxy's HTML page or a cut body is not a result: never hand it on as one.
        if (answer.body instanceof NotJson) {
          throw new ObsApiError(
            `${call.name} got HTTP ${answer.status} with a body that is not JSON: ${JSON.stringify(answer.body.text.slice(0, 200))}`,
            { statusCode: answer.status, body: answer.body.text },
          );
        }
        return answer.body as T;
      }
      if (answer.body instanceof NotJson) answer.body = answer.body.text;
      if (isRetryableStatus(answer.status) && attempt < maxRetries) {
        const wait = parseRetryAfter(answer.retryAfter) ?? backoffDelay(attempt, this.#config.backoff);
        await sleep(wait, opts.abortSignal);
        continue;
      }
      throw new ObsApiError(`${call.name} failed with HTTP ${answer.status}`, {
        statusCode: answer.status,
        body: answer.body,
      });
    }
  }

  /** One fetch, body included, under one timeout. */
  private async attempt(
    call: ApiCall,
    url: string,
    init: { method: string; headers: Record<string, string>; body: string | undefined },
    timeoutInSeconds: number,
    signal: AbortSignal | undefined,
  ): Promise<Answer> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        controller.abort();
      },
      Math.min(MAX_TIMER_MS, timeoutInSeconds * 1000),
    );
    const onAbort = (): void => controller.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const doFetch = this.#config.fetch ?? fetch;
      const request = () => doFetch(url, { ...init, signal: controller.signal });
      const response = await (this.#config.around ? this.#config.around(request) : request());
      const body = await readBody(response);
      return { status: response.status, ok: response.ok, retryAfter: response.headers.get('retry-after'), body };
    } catch (err) {
      if (timedOut) throw new ObsApiTimeoutError(call.name, timeoutInSeconds);
      throw err;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

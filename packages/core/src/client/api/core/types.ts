/** Per-call settings of every generated API method (contract 4.1). */
export interface RequestOptions {
  /** Timeout of one attempt, in seconds. */
  timeoutInSeconds?: number;
  /** Retries after the first attempt on network errors, 408, 429 and 5xx. */
  maxRetries?: number;
  /** Aborts the call, including any retry wait. */
  abortSignal?: AbortSignal;
}

/**
 * The empty request placeholder of the 41 methods of contract 4.2.
 *
 * `Record<string, never>` accepts only `{}`, so a `RequestOptions` passed in this position
 * (the pre-6 signature) is a compile error rather than silently ignored.
 */
export type EmptyRequest = Record<string, never>;

/** HTTP verbs used by the public API. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A query value; arrays repeat the key, `undefined` omits it. */
export type QueryValue = string | number | boolean | Date | undefined | null | ReadonlyArray<string | number | boolean>;

/** One call of the public API, as a resource method describes it. */
export interface ApiCall {
  /** `namespace.method`, used in error messages. */
  name: string;
  method: HttpMethod;
  /** Path below the base URL, path parameters already encoded. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
}

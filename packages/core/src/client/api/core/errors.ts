/** A call of the public API that failed: a non-2xx answer, or no answer at all. */
export class ObsApiError extends Error {
  override readonly name: string = 'ObsApiError';
  /** HTTP status, absent when the server never answered (network error). */
  readonly statusCode: number | undefined;
  /** Parsed response body (JSON when it parses, else text). */
  readonly body: unknown;

  constructor(message: string, options: { statusCode?: number; body?: unknown; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.statusCode = options.statusCode;
    this.body = options.body;
  }
}

/** An attempt that got no answer within `timeoutInSeconds`; the message names the call. */
export class ObsApiTimeoutError extends Error {
  override readonly name: string = 'ObsApiTimeoutError';

  constructor(
    /** `namespace.method` of the call that timed out. */
    readonly call: string,
    /** The timeout that elapsed, in seconds. */
    readonly timeoutInSeconds: number,
  ) {
    super(`${call} timed out after ${timeoutInSeconds}s`);
  }
}

import { resolveConnection, type ObsConnectionOptions, type ResolvedConnection } from '../config/connection.js';
import { readEnvNumber } from '../config/env.js';
import type { BackoffOptions } from '../util/retry.js';
import { MAX_TIMER_MS, numberOption, secondsToTimerMs } from '../config/numeric-option.js';
import { nonNegativeInteger, positive } from './util/numbers.js';

/** Options of `new ObsClient()`. Durations are in seconds, like `timeoutInSeconds`. */
export interface ObsClientOptions extends ObsConnectionOptions {
  /** Send scores once this many wait; default `OBS_FLUSH_AT`, then 10. Requests carry at most 100. */
  flushAt?: number;
  /** Send waiting scores after this many seconds; default `OBS_FLUSH_INTERVAL`, then 1. */
  flushInterval?: number;
  /** Timeout of one API request attempt, in seconds; default `OBS_TIMEOUT`, then 5. */
  timeout?: number;
  /** Retries of a failed API request (network error, 408, 429, 5xx); default 3. Scores are retried within `retryBudget` instead. */
  maxRetries?: number;
  /** Backoff between retries; default 500 ms doubling up to 10 s. */
  backoff?: BackoffOptions;
  /** Seconds a failed score batch is retried (timeouts included) before it is dropped and counted; default 60. */
  retryBudget?: number;
  /** Scores allowed to wait for delivery; more are dropped with an error log. Default 10,000. */
  maxQueueSize?: number;
  /**
   * Seconds `flush()` waits at most by default, and `shutdown()` before it drops what is left
   * (one line); default 15 (`initObs` passes its own `shutdownTimeout`).
   */
  shutdownTimeout?: number;
  /** Seconds between "still failing" lines of one outage; default 30 (`initObs` passes its own). */
  outageReportInterval?: number;
  /** Environment stamped on scores that name none. */
  environment?: string;
  /** Replacement for the global `fetch`. */
  fetch?: typeof fetch;
}

/** Every setting of the client, resolved from options, then `OBS_*` variables, then defaults. */
export interface ClientSettings {
  connection: ResolvedConnection;
  flushAt: number;
  flushIntervalMs: number;
  timeoutInSeconds: number;
  maxRetries: number;
  backoff: BackoffOptions | undefined;
  maxQueueSize: number;
  retryBudgetMs: number;
  shutdownTimeoutMs: number;
  outageReportEveryMs: number;
  environment: string | undefined;
  fetch: typeof fetch | undefined;
}

/** Never throws: anything unusable falls back to the next source. */
export function resolveClientSettings(input: unknown): ClientSettings {
  const options: ObsClientOptions = typeof input === 'object' && input !== null ? (input as ObsClientOptions) : {};
  return {
    connection: resolveConnection(options),
    flushAt: numberOption('flushAt', options.flushAt ?? readEnvNumber('OBS_FLUSH_AT'), 10, { integer: true }),
    flushIntervalMs: secondsToTimerMs(numberOption('flushInterval', options.flushInterval ?? readEnvNumber('OBS_FLUSH_INTERVAL'), 1)),
    timeoutInSeconds: numberOption('timeout', options.timeout ?? readEnvNumber('OBS_TIMEOUT'), 5, { max: MAX_TIMER_MS / 1000 }),
    maxRetries: nonNegativeInteger(options.maxRetries) ?? 3,
    backoff: typeof options.backoff === 'object' && options.backoff !== null ? options.backoff : undefined,
    maxQueueSize: Math.floor(positive(options.maxQueueSize) ?? 10_000),
    retryBudgetMs: secondsToTimerMs(numberOption('retryBudget', options.retryBudget, 60, { allowZero: true })),
    shutdownTimeoutMs: secondsToTimerMs(numberOption('shutdownTimeout', options.shutdownTimeout, 15, { allowZero: true })),
    outageReportEveryMs: secondsToTimerMs(numberOption('outageReportInterval', options.outageReportInterval, 30)),
    environment: typeof options.environment === 'string' && options.environment !== '' ? options.environment : undefined,
    fetch: typeof options.fetch === 'function' ? options.fetch : undefined,
  };
}

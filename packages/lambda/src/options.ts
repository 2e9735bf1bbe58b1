import type { ObsHttpOptions, ObsInitOptions } from '@obs/core';

/**
 * Options of `wrapHandler`: the shared request-observation options of every obs adapter
 * (`identify`, `captureInput`, `captureOutput`, `maxCaptureBytes`, `redactKeys`, `ignore`,
 * `traceIdHeader`, `name`), called with the invocation's event (`captureOutput` with the recorded
 * output and the handler's result), plus what only Lambda needs.
 */
// biome-ignore lint/suspicious/noExplicitAny: the event and result default to any, as in @types/aws-lambda's Handler
export interface ObsLambdaOptions<TEvent = any, TResult = any> extends ObsHttpOptions<TEvent, TResult> {
  /**
   * Options for `initObs()` when the wrapper sets tracing up itself (at the first invocation, when
   * nothing called `initObs` before). Ignored when tracing is already set up.
   */
  obs?: ObsInitOptions;
  /**
   * The most an invocation waits for its spans to be delivered before it returns, in ms. Default
   * 5000. The wait is also cut at what the function has left before its timeout, less
   * `flushMarginMs`; what is not delivered then is said in one line and stays buffered.
   */
  flushTimeoutMs?: number;
  /** Time kept for the runtime between the end of the wait and the function's timeout, in ms. Default 500. */
  flushMarginMs?: number;
}

/**
 * The parts of the Lambda `context` obs reads (`Context` of `@types/aws-lambda` has them all).
 * Anything missing is simply not recorded: a handler called by hand in a test still runs.
 */
export interface LambdaContextLike {
  awsRequestId?: string;
  functionName?: string;
  functionVersion?: string;
  invokedFunctionArn?: string;
  getRemainingTimeInMillis?: () => number;
}

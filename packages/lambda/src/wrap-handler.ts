import { getObsHandle, initObs, type ObsHandle } from '@obs/core';
import { HttpObserver, type ObsHttpOptions } from '@obs/core/http';
import { AdapterGuard, isThenable, warnMisplacedOptions } from '@obs/core/kit';
import { deliver, deliveryBudget, DEFAULT_FLUSH_MARGIN_MS, DEFAULT_FLUSH_TIMEOUT_MS } from './deliver.js';
import { Invocation, runIn } from './invocation.js';
import type { LambdaContextLike, ObsLambdaOptions } from './options.js';
import { observedStream, StreamOutput } from './response-stream.js';
import { triggerOf } from './triggers.js';

// biome-ignore lint/suspicious/noExplicitAny: a handler of any event and result, as @types/aws-lambda's Handler
type AnyHandler = (event: any, ...rest: any[]) => any;
// biome-ignore lint/suspicious/noExplicitAny: inference position
type EventOf<H> = H extends (event: infer E, ...rest: any[]) => any ? E : unknown;
type ResultOf<H extends AnyHandler> = Awaited<ReturnType<H>>;
type Callback = (error?: unknown, result?: unknown) => void;
type Outcome = { error: unknown } | { result: unknown };

/** What `awslambda.streamifyResponse` marks a handler with (the Node.js runtime reads them off the function). */
const STREAMING_MARKS = [
  Symbol.for('aws.lambda.runtime.handler.streaming'),
  Symbol.for('aws.lambda.runtime.handler.streaming.highWaterMark'),
];

/**
 * Wraps a Lambda handler so each invocation is one obs trace, delivered before the invocation
 * ends: the root observation is named from the event (`POST /chat/{id}` for API Gateway, `sqs
 * orders` with one child per message, the function's name for anything else), with the event's
 * input, the result's output, `identify(event)`'s user and session on every span, a thrown error
 * as `ERROR` (rethrown unchanged), and the request id and cold start in its metadata. Async,
 * callback and streaming handlers (`awslambda.streamifyResponse`, in either order) keep their
 * shape and types. Sets tracing up at the first invocation when nothing called `initObs()`.
 *
 * @example
 * ```ts
 * export const handler = wrapHandler(async (event: APIGatewayProxyEventV2) => {
 *   return { statusCode: 200, body: JSON.stringify({ answer: await answer(event.body) }) };
 * }, { identify: (event) => ({ userId: event.requestContext.accountId }) });
 * ```
 */
export function wrapHandler<H extends AnyHandler>(handler: H, options: ObsLambdaOptions<EventOf<H>, ResultOf<H>> = {}): H {
  warnMisplacedOptions('wrapHandler', options);
  const { obs: init, flushTimeoutMs = DEFAULT_FLUSH_TIMEOUT_MS, flushMarginMs = DEFAULT_FLUSH_MARGIN_MS, ...http } = options;
  const guard = new AdapterGuard('@obs/lambda');
  // The request layer reads the event and result as they come: the types are the caller's.
  const layer: HttpObserver = new HttpObserver(http as ObsHttpOptions);
  let handle: ObsHandle | undefined;

  /** Starts the invocation's trace; undefined when ignored, or when obs failed (logged once). */
  const begin = (event: unknown, lambda: LambdaContextLike): Invocation | undefined =>
    guard.run(() => {
      handle ??= getObsHandle() ?? initObs(init);
      const trigger = triggerOf(event);
      const ignored = trigger.type === 'http' ? layer.ignores(trigger.method, trigger.path, event) : layer.ignores('', '', event);
      return ignored ? undefined : new Invocation(layer, event, lambda, trigger);
    });

  /** Ends the trace with the handler's outcome and delivers it, within what the invocation has left. */
  const settle = async (invocation: Invocation, lambda: LambdaContextLike, outcome: Outcome): Promise<void> => {
    guard.run(() => ('error' in outcome ? invocation.fail(outcome.error) : invocation.succeed(outcome.result)));
    if (handle) await deliver(handle, deliveryBudget(lambda, flushTimeoutMs, flushMarginMs));
  };

  /** An async or streaming handler: the returned promise settles once the trace is delivered. */
  async function obsHandler(this: unknown, ...args: unknown[]): Promise<unknown> {
    const streaming = isStreamCall(args);
    const lambda = (streaming ? args[2] : args[1]) as LambdaContextLike;
    const invocation = begin(args[0], lambda ?? {});
    if (!invocation) return handler.apply(this, args as Parameters<H>);
    if (streaming) {
      guard.run(() => {
        const output = new StreamOutput(invocation.ro);
        args[1] = observedStream(args[1] as object, output, guard);
        invocation.stream = output;
      });
    }
    let result: unknown;
    try {
      result = await runIn(invocation, () => handler.apply(this, args as Parameters<H>));
    } catch (error) {
      await settle(invocation, lambda ?? {}, { error });
      throw error;
    }
    await settle(invocation, lambda ?? {}, { result });
    return guard.run(() => invocation.answer(result), result);
  }

  /**
   * A callback handler (`(event, context, callback)`): the runtime's callback is called once the
   * trace is delivered, so `callbackWaitsForEmptyEventLoop` works as before. One that returns a
   * promise as well is answered as the runtime would: through the promise.
   */
  function obsCallbackHandler(this: unknown, event: unknown, lambda: LambdaContextLike, callback: Callback): unknown {
    if (isStreamCall([event, lambda, callback])) return obsHandler.call(this, event, lambda, callback);
    const invocation = begin(event, lambda ?? {});
    if (!invocation) return handler.call(this, event, lambda, callback);
    let delivered: Promise<void> | undefined;
    // The first outcome ends the trace; every completion the handler makes is passed on after the delivery.
    const settleOnce = (outcome: Outcome) => (delivered ??= settle(invocation, lambda ?? {}, outcome));
    const done: Callback = (error, result) => {
      const failed = error !== undefined && error !== null;
      void settleOnce(failed ? { error } : { result }).then(() =>
        failed
          ? callback(error)
          : callback(
              null,
              guard.run(() => invocation.answer(result), result),
            ),
      );
    };
    let returned: unknown;
    try {
      returned = runIn(invocation, () => handler.call(this, event, lambda, done));
    } catch (error) {
      // The runtime answers a synchronous throw with the error; so does this, once delivered.
      void settleOnce({ error }).then(() => callback(error));
      return undefined;
    }
    if (!isThenable(returned)) return returned;
    return Promise.resolve(returned).then(
      async (result) => {
        await settleOnce({ result });
        return guard.run(() => invocation.answer(result), result);
      },
      async (error: unknown) => {
        await settleOnce({ error });
        throw error;
      },
    );
  }

  const wrapped = isCallbackHandler(handler) ? obsCallbackHandler : obsHandler;
  for (const mark of STREAMING_MARKS)
    if (mark in handler) (wrapped as unknown as Record<symbol, unknown>)[mark] = (handler as unknown as Record<symbol, unknown>)[mark];
  return wrapped as unknown as H;
}

/** A handler written with a callback: a plain function taking one (an async function's callback is unused). */
function isCallbackHandler(handler: AnyHandler): boolean {
  return handler.length >= 3 && handler.constructor?.name !== 'AsyncFunction';
}

/** The runtime called a streaming handler: `(event, responseStream, context)`. */
function isStreamCall(args: unknown[]): boolean {
  const stream = args[1] as { write?: unknown; end?: unknown } | undefined;
  const lambda = args[2] as LambdaContextLike | undefined;
  return (
    typeof stream === 'object' &&
    stream !== null &&
    typeof stream.write === 'function' &&
    typeof stream.end === 'function' &&
    typeof lambda === 'object' &&
    lambda !== null &&
    (typeof lambda.awsRequestId === 'string' || typeof lambda.getRemainingTimeInMillis === 'function')
  );
}

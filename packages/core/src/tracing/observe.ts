import { context, type Context } from '@opentelemetry/api';
import type { ObservationType } from './attributes.js';
import { logger } from '../util/logger.js';
import type { ObsObservation } from './observation.js';
import type { ObsObservationAttributes } from './observation-attributes.js';
import { isAsyncIterator, isReadableStream, isThenable } from '../util/guards.js';
import { readOr, reasonOf, unserialisable } from '../util/serialize.js';
import { safeName, safeOptions, warnUnreadable } from './hostile-input.js';
import { activeContextFor, startObservation } from './start.js';
import {
  DEFAULT_STREAM_CAPTURE_CHARS,
  endObservationOnStreamEnd,
  recordObservationError,
  type ErrorRecorder,
  type StreamEnd,
  wrapAsyncGenerator,
  wrapReadableStream,
} from './wrap-result.js';

/** Options of `observe`. */
export interface ObserveOptions {
  /** Observation name; default the function's name. */
  name?: string;
  /** Observation type; default `span`. */
  asType?: ObservationType;
  /** Record the arguments as input; default true. */
  captureInput?: boolean;
  /** Record the result (streams: their collected text) as output; default true. */
  captureOutput?: boolean;
  /** Extra attributes set at start (model, metadata, ...). */
  attributes?: ObsObservationAttributes;
  /** For framework adapters: result kinds and error semantics core does not know. */
  hooks?: ObserveHooks;
}

/** Extension points of `observe` for adapters (e.g. RxJS Observables in `@obs/nest`). */
export interface ObserveHooks {
  /**
   * Wraps a result core does not recognise as a stream; return `undefined` to leave it to core.
   * Call `end(output, how, error)` once when the wrapped stream completes, fails or is cancelled.
   */
  wrapResult?: (result: unknown, end: StreamEnd, ctx: Context) => unknown;
  /** Records an error thrown or emitted by the observed code; default: level ERROR. */
  recordError?: ErrorRecorder;
}

/**
 * Wraps `fn` so each call is an observation, active while it runs. Sync values, Promises, async
 * generators and ReadableStreams are supported; for streams the observation ends when the
 * stream is consumed, fails or is cancelled. Errors are recorded and rethrown unchanged.
 */
// biome-ignore lint/suspicious/noExplicitAny: TypeScript's any-function constraint: F keeps the caller's exact signature, and the wrapper calls fn with whatever arguments it got
export function observe<F extends (...args: any[]) => any>(fn: F, rawOptions: ObserveOptions = {}): F {
  const options: ObserveOptions = safeOptions(rawOptions, 'observe options') ?? {};
  const name = options.name !== undefined ? safeName(options.name) : fnName(fn);
  const captureInput = options.captureInput !== false;
  const captureOutput = options.captureOutput !== false;
  const startOptions = { asType: options.asType };
  const wrapped = function (this: unknown, ...args: unknown[]) {
    let obs: ObsObservation;
    try {
      const attributes: ObsObservationAttributes = options.attributes ? { ...options.attributes } : {};
      if (captureInput && args.length > 0) attributes.input = args.length === 1 ? args[0] : args;
      obs = startObservation(name, attributes, startOptions);
    } catch (err) {
      logger.warn(`observe(${name}): could not start observation: ${String(err)}`);
      return fn.apply(this, args);
    }
    const ctx = activeContextFor(obs);
    let result: unknown;
    try {
      // Reflect.apply with the call's own `this` and arguments: no closure or bound function per call.
      result = context.with(ctx, Reflect.apply, undefined, fn, this, args);
    } catch (err) {
      (options.hooks?.recordError ?? recordObservationError)(obs, err);
      obs.end();
      throw err;
    }
    try {
      return handleResult(result, obs, ctx, captureOutput, options.hooks);
    } catch (err) {
      // The function succeeded; only looking at its result failed (revoked Proxy, throwing
      // getter): end the observation with a placeholder and hand the result back unchanged.
      warnUnreadable('result', err);
      obs.update({ output: unserialisable(reasonOf(err)) });
      obs.end();
      return result;
    }
  };
  Object.defineProperty(wrapped, 'name', { value: fnName(fn) });
  return wrapped as F;
}

function fnName(fn: unknown): string {
  return readOr(() => (fn as { name?: unknown }).name, '') || 'anonymous';
}

function handleResult(result: unknown, obs: ObsObservation, ctx: Context, captureOutput: boolean, hooks?: ObserveHooks): unknown {
  const recordError = hooks?.recordError ?? recordObservationError;
  const end = endObservationOnStreamEnd(obs, captureOutput, recordError);
  // A stream whose output is not recorded is passed through without collecting its chunks.
  const maxChars = captureOutput ? DEFAULT_STREAM_CAPTURE_CHARS : 0;
  const streamed = handleStreamOnly(result, ctx, end, maxChars, hooks);
  if (streamed !== undefined) return streamed;
  if (isThenable(result)) {
    return Promise.resolve(result).then(
      (value) => {
        // An async function may resolve to a stream: the observation then lasts as long as it.
        if (isAsyncIterator(value) || isReadableStream(value) || hooks?.wrapResult) {
          const streamed = handleStreamOnly(value, ctx, end, maxChars, hooks);
          if (streamed !== undefined) return streamed;
        }
        if (captureOutput && value !== undefined) obs.update({ output: value });
        obs.end();
        return value;
      },
      (err: unknown) => {
        recordError(obs, err);
        obs.end();
        throw err;
      },
    );
  }
  if (captureOutput && result !== undefined) obs.update({ output: result });
  obs.end();
  return result;
}

function handleStreamOnly(value: unknown, ctx: Context, end: StreamEnd, maxChars: number, hooks?: ObserveHooks): unknown {
  const custom = hooks?.wrapResult?.(value, end, ctx);
  if (custom !== undefined) return custom;
  if (isAsyncIterator(value)) return wrapAsyncGenerator(value, ctx, end, maxChars);
  if (isReadableStream(value)) return wrapReadableStream(value, end, maxChars);
  return undefined;
}

import { context, type Context } from '@opentelemetry/api';
import type { ObservationType } from '../attributes.js';
import { logger } from '../logger.js';
import { recordErrorOnSpan, type ObsObservation } from './observation.js';
import type { ObsObservationAttributes } from './observation-attributes.js';
import { isThenable } from './settle.js';
import { activeContextFor, startObservation } from './start.js';
import {
  endObservationOnStreamEnd,
  isAsyncIterator,
  isReadableStream,
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
}

/**
 * Wraps `fn` so each call is an observation, active while it runs. Sync values, Promises, async
 * generators and ReadableStreams are supported; for streams the observation ends when the
 * stream is consumed, fails or is cancelled. Errors are recorded and rethrown unchanged.
 */
export function observe<F extends (...args: any[]) => any>(fn: F, options: ObserveOptions = {}): F {
  const name = options.name ?? (fn.name || 'anonymous');
  const captureInput = options.captureInput !== false;
  const captureOutput = options.captureOutput !== false;
  const wrapped = function (this: unknown, ...args: unknown[]) {
    let obs: ObsObservation;
    try {
      obs = startObservation(name, {
        ...options.attributes,
        ...(captureInput && args.length > 0 ? { input: args.length === 1 ? args[0] : args } : {}),
      }, { asType: options.asType });
    } catch (err) {
      logger.warn(`observe(${name}): could not start observation: ${String(err)}`);
      return fn.apply(this, args);
    }
    const ctx = activeContextFor(obs);
    let result: unknown;
    try {
      result = context.with(ctx, () => fn.apply(this, args));
    } catch (err) {
      recordErrorOnSpan(obs.otelSpan, err);
      obs.end();
      throw err;
    }
    return handleResult(result, obs, ctx, captureOutput);
  };
  Object.defineProperty(wrapped, 'name', { value: fn.name });
  return wrapped as F;
}

function handleResult(result: unknown, obs: ObsObservation, ctx: Context, captureOutput: boolean): unknown {
  if (isAsyncIterator(result)) return wrapAsyncGenerator(result, ctx, endObservationOnStreamEnd(obs, captureOutput));
  if (isReadableStream(result)) return wrapReadableStream(result, endObservationOnStreamEnd(obs, captureOutput));
  if (isThenable(result)) {
    return Promise.resolve(result).then(
      (value) => {
        // An async function may resolve to a stream: the observation then lasts as long as it.
        if (isAsyncIterator(value) || isReadableStream(value)) return handleResult(value, obs, ctx, captureOutput);
        if (captureOutput && value !== undefined) obs.update({ output: value });
        obs.end();
        return value;
      },
      (err: unknown) => {
        recordErrorOnSpan(obs.otelSpan, err);
        obs.end();
        throw err;
      },
    );
  }
  if (captureOutput && result !== undefined) obs.update({ output: result });
  obs.end();
  return result;
}

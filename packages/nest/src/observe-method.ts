import { context, type Context } from '@opentelemetry/api';
import { observe, type ObserveOptions } from '@obs/core';
import { errorMessage, recordObservationError, StreamCollector, type ErrorRecorder, type StreamEnd } from '@obs/core/kit';
import { isObservable, Observable } from 'rxjs';
import { isClientError } from './exceptions.js';

/**
 * Wraps `fn` so each call is one observation: core's `observe` (sync, Promise, async generator,
 * ReadableStream), plus RxJS Observables, which end the observation on complete, error or
 * unsubscribe, and Nest's error semantics (an `HttpException` below 500 is not an error).
 */
export function observeMethod<F extends (...args: never[]) => unknown>(fn: F, options: Omit<ObserveOptions, 'hooks'>): F {
  return observe(fn, { ...options, hooks: { wrapResult: wrapObservable, recordError: recordNestError } });
}

/**
 * An error thrown by the method: level ERROR, except an `HttpException` below 500 (a service
 * saying "not found"), which the request answers normally: level WARNING with its message.
 */
const recordNestError: ErrorRecorder = (obs, error) => {
  if (isClientError(error)) obs.update({ level: 'WARNING', statusMessage: errorMessage(error) });
  else recordObservationError(obs, error);
};

/**
 * Passes an Observable through. The source is subscribed in the observation's context (its
 * async work nests under it); the observation ends once, when the first subscription
 * completes, errors or is unsubscribed (marked cancelled).
 */
function wrapObservable(result: unknown, end: StreamEnd, ctx: Context): Observable<unknown> | undefined {
  if (!isObservable(result)) return undefined;
  const emissions = new StreamCollector();
  let ended = false;
  const finish = (how: 'done' | 'error' | 'cancelled', error?: unknown) => {
    if (ended) return;
    ended = true;
    end(emissions.empty ? undefined : emissions.value(), how, error);
  };
  return new Observable<unknown>((subscriber) => {
    const subscription = context.with(ctx, () =>
      result.subscribe({
        next: (value) => {
          if (!ended) emissions.push(value);
          subscriber.next(value);
        },
        error: (err: unknown) => {
          finish('error', err);
          subscriber.error(err);
        },
        complete: () => {
          finish('done');
          subscriber.complete();
        },
      }),
    );
    return () => {
      subscription.unsubscribe();
      finish('cancelled');
    };
  });
}

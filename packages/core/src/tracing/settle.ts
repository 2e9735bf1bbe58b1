/** Ends an observation when the value its function returned settles (sync, Promise or thenable). */
import type { Span } from '@opentelemetry/api';
import { recordErrorOnSpan } from './record-error.js';

/** What `endWhenSettled` needs of an observation. */
interface Endable {
  readonly otelSpan: Span;
  end(): void;
}

/** Ends `obs` when a sync value is returned or a thenable settles; errors are recorded. */
export function endWhenSettled<T>(result: T, obs: Endable, onValue?: (value: unknown) => void): T {
  if (isThenable(result)) {
    return result.then(
      (value: unknown) => {
        onValue?.(value);
        obs.end();
        return value;
      },
      (err: unknown) => {
        recordErrorOnSpan(obs.otelSpan, err);
        obs.end();
        throw err;
      },
    ) as T;
  }
  onValue?.(result);
  obs.end();
  return result;
}

/** Whether a value is a Promise or Promise-like. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  try {
    return (
      value !== null &&
      (typeof value === 'object' || typeof value === 'function') &&
      typeof (value as { then?: unknown }).then === 'function'
    );
  } catch {
    // A revoked Proxy or a throwing `then` getter: not something we can await.
    return false;
  }
}

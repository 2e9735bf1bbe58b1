/** Ends an observation when the value its function returned settles (sync, Promise or thenable). */
import type { Span } from '@opentelemetry/api';
import { isThenable } from '../util/guards.js';
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

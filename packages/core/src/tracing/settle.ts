/** Ends an observation when the value its function returned settles (sync, Promise or thenable). */
import { isThenable } from '../util/guards.js';
import type { ObsObservation } from './observation.js';
import { recordErrorOnSpan } from './record-error.js';

/** Ends `obs` when a sync value is returned or a thenable settles; errors are recorded. */
export function endWhenSettled<T>(result: T, obs: ObsObservation): T {
  if (isThenable(result)) {
    return result.then(
      (value: unknown) => {
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
  obs.end();
  return result;
}

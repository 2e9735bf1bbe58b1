/**
 * Followers for results that are plain values, Promises, or async iterables (a generator, or a
 * Promise of one): `followPromise` ends the call with the value, or, when the call streams,
 * hands the caller the stream watched (a new async generator with the same items);
 * `followStreamIn(key)` hands back an output object whose stream sits at `key`, watched. An SDK whose
 * stream object has an API of its own (`tee()`, `controller`) needs a follower that keeps that
 * object and hooks it in place instead, as `followApiPromise` does (`stainless.ts`).
 */
import { type Dict, isAsyncIterable, isThenable } from '../util/guards.js';
import type { ModelCall } from './model-call.js';
import type { ResultFollower } from './observe-client.js';

/** Follows a value, a Promise of one, or (when streaming) an async iterable or a Promise of one. */
export const followPromise: ResultFollower = (call, result, streaming) => following(call, result, streaming, settleValue);

function settleValue(call: ModelCall, value: unknown, streaming: boolean): unknown {
  if (streaming && isAsyncIterable(value)) return call.watchIterable(value);
  call.finish(value);
  return value;
}

/**
 * Follows a value or a Promise of one whose stream, when the call streams, is the async iterable
 * at one of `keys` of it (Bedrock's ConverseStream output `stream`, InvokeModelWithResponseStream's
 * `body`): the caller gets a copy of the output with that stream watched. Anything else ends the
 * call as a complete response.
 */
export function followStreamIn(...keys: string[]): ResultFollower {
  const settle = (call: ModelCall, output: unknown, streaming: boolean): unknown => {
    const key =
      streaming && typeof output === 'object' && output !== null ? keys.find((k) => isAsyncIterable((output as Dict)[k])) : undefined;
    if (key === undefined) {
      call.finish(output);
      return output;
    }
    return { ...(output as Dict), [key]: call.watchIterable((output as Dict)[key] as AsyncIterable<unknown>) };
  };
  return (call, result, streaming) => following(call, result, streaming, settle);
}

/**
 * Settles the value, or the value a Promise resolves to; a rejection fails the call and reaches
 * the caller. A step, not a follower factory: a follower it returned would be anonymous, and the
 * kit's exports keep their names (`followPromise`).
 */
function following(call: ModelCall, result: unknown, streaming: boolean, settle: typeof settleValue): unknown {
  if (!isThenable(result)) return settle(call, result, streaming);
  return Promise.resolve(result).then(
    (value) => settle(call, value, streaming),
    (err: unknown) => {
      call.fail(err);
      throw err;
    },
  );
}

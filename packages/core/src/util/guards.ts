/**
 * The shape checks of values obs did not make (an app's data, an SDK's answer, a framework's
 * request), in one place: every layer and every adapter asks these instead of writing its own
 * `typeof v === 'object' && ...`. None throws: a revoked Proxy or a throwing getter is "not that".
 */

/** A string-keyed record read from data of unknown shape. */
export type Dict = Record<string, unknown>;

/** An object (arrays included), not `null`. */
export function isObject(v: unknown): v is object {
  return typeof v === 'object' && v !== null;
}

/** A record: an object that is not an array, not `null`. */
export function isDict(v: unknown): v is Dict {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `v` when it is a record, else an empty one (for reading optional fields without checks). */
export function dict(v: unknown): Dict {
  return isDict(v) ? v : {};
}

/** An object literal or `Object.create(null)`: not a class instance, not a built-in. */
export function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** A non-empty string, else `undefined`. */
export function nonEmptyString(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** A finite number, else `undefined`. */
export function finiteNumber(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** A Promise or Promise-like. */
export function isThenable(v: unknown): v is PromiseLike<unknown> {
  try {
    return (typeof v === 'object' || typeof v === 'function') && v !== null && typeof (v as { then?: unknown }).then === 'function';
  } catch {
    // A revoked Proxy or a throwing `then` getter: not something we can await.
    return false;
  }
}

/** Something `for await` takes. */
export function isAsyncIterable(v: unknown): v is AsyncIterable<unknown> {
  try {
    return typeof v === 'object' && v !== null && typeof (v as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';
  } catch {
    return false;
  }
}

/** An async generator or iterator (iterable and with `next`): what can be wrapped step by step without changing its behaviour. */
export function isAsyncIterator(v: unknown): v is AsyncGenerator<unknown, unknown, unknown> {
  try {
    return isAsyncIterable(v) && typeof (v as AsyncGenerator).next === 'function';
  } catch {
    return false;
  }
}

/** A WHATWG `ReadableStream`. */
export function isReadableStream(v: unknown): v is ReadableStream<unknown> {
  return typeof ReadableStream !== 'undefined' && v instanceof ReadableStream;
}

/**
 * The private shapes of the `openai` package that obs hooks into, in one typed file (openai
 * 4-7 share them). A call returns an `APIPromise`: a Promise subclass whose body is parsed
 * only when someone awaits it (or calls `withResponse()`); `asResponse()` hands out the raw
 * `Response` unparsed. obs wraps the promise's own parser, so it sees the value exactly when
 * the caller does, never parses a body the caller reads raw, and returns the same promise (its
 * `withResponse()`, `asResponse()` and `_thenUnwrap` helpers keep working; openai 7 gives each
 * promise its own `_thenUnwrap`, which parses without `parseResponse`, so that is hooked too). A stream's
 * `iterator` is what iteration, `tee()` and `toReadableStream()` all read from.
 */

type ParseResponse = (client: unknown, props: unknown) => unknown;

/** The parts of `APIPromise` obs uses. */
interface APIPromiseLike {
  parseResponse: ParseResponse;
  responsePromise: Promise<unknown>;
  asResponse: () => Promise<unknown>;
  withResponse: () => Promise<unknown>;
  /** The SDK's helpers (`parse()`, base64 embeddings) derive a promise with a transform of the value. */
  _thenUnwrap?: (transform: (value: unknown, props: unknown) => unknown) => unknown;
}

/** What happens to one call's promise. */
export interface PromiseHooks {
  /** The parsed value, before the caller gets it (possibly more than once); returns what the caller gets. */
  parsed(value: unknown): unknown;
  /** The request or the parsing failed. */
  failed(error: unknown): void;
  /** The caller took the raw response (`asResponse()`); it has arrived. */
  raw(): void;
}

export function isApiPromise(v: unknown): v is APIPromiseLike {
  const p = v as Partial<APIPromiseLike> | null;
  return (
    typeof p === 'object' &&
    p !== null &&
    typeof p.parseResponse === 'function' &&
    typeof p.asResponse === 'function' &&
    typeof p.withResponse === 'function' &&
    typeof (p.responsePromise as Promise<unknown> | undefined)?.then === 'function'
  );
}

/** Hooks `hooks` into `p` in place. */
export function hookApiPromise(p: APIPromiseLike, hooks: PromiseHooks): void {
  const parse = p.parseResponse;
  p.parseResponse = async (client, props) => {
    let value: unknown;
    try {
      value = await parse(client, props);
    } catch (err) {
      hooks.failed(err);
      throw err;
    }
    return hooks.parsed(value);
  };
  // Handled here, so a request the caller never awaits fails into its observation only.
  p.responsePromise.then(undefined, (err: unknown) => hooks.failed(err));
  const asResponse = p.asResponse;
  const withResponse = p.withResponse;
  let insideWithResponse = false;
  p.asResponse = function (this: unknown) {
    if (!insideWithResponse)
      p.responsePromise.then(
        () => hooks.raw(),
        () => {},
      );
    return asResponse.call(this);
  };
  // withResponse() parses and also calls asResponse(): that is not a raw read.
  p.withResponse = function (this: unknown) {
    insideWithResponse = true;
    try {
      return withResponse.call(this);
    } finally {
      insideWithResponse = false;
    }
  };
  const unwrap = p._thenUnwrap;
  if (typeof unwrap === 'function') {
    p._thenUnwrap = function (this: unknown, transform) {
      const derived = unwrap.call(this, (value, props) => transform(hooks.parsed(value), props));
      // The derived promise reports its failures and raw reads; its value was seen above.
      if (isApiPromise(derived)) hookApiPromise(derived, { parsed: (v) => v, failed: hooks.failed, raw: hooks.raw });
      return derived;
    };
  }
}

/** The part of openai's `Stream` obs wraps: its `iterator` factory. */
export interface StreamLike {
  iterator: () => AsyncIterator<unknown>;
}

export function isStream(v: unknown): v is StreamLike {
  return typeof v === 'object' && v !== null && typeof (v as Partial<StreamLike>).iterator === 'function';
}

/** Replaces the stream's iterator factory with `wrap(original())`. */
export function hookStream(stream: StreamLike, wrap: (it: AsyncIterator<unknown>) => AsyncIterator<unknown>): void {
  const original = stream.iterator;
  stream.iterator = function (this: unknown) {
    return wrap(original.call(this));
  };
}

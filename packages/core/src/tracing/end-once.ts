/**
 * The one way obs follows a stream it hands on: every wrapper of an async iterator or a
 * `ReadableStream` (`observe`'s results, the fetch layer's response bodies, the model SDK kit's
 * streams) is `watchIterator` or `watchReadableStream`. Items pass through untouched as the
 * consumer asks for them (nothing is read ahead or buffered), each step runs in the given
 * context, and the watcher hears of the end exactly once: read to its end, failed, or left by
 * the consumer (`return()`, `break`, `cancel()`). A watcher that throws is logged and ignored:
 * the consumer's stream never fails because of it.
 */
import { context, type Context } from '@opentelemetry/api';
import { logger } from '../util/logger.js';
import { errorMessage } from './record-error.js';

/** How a watched stream ended. */
export type StreamEndKind = 'done' | 'error' | 'cancelled';

/** What a watched stream reports: `start` and `end` at most once, `item` per item. */
export interface StreamWatcher<T> {
  /** The consumer asked for the first item. */
  start?(): void;
  /** An item, as it passes to the consumer. */
  item?(value: T): void;
  /** The stream ended: read to its end, failed (with the error), or left by the consumer. */
  end(how: StreamEndKind, error?: unknown): void;
}

/**
 * Follows `source` for `watcher` and returns an async generator with its items; `ctx`, when
 * given, is the active context of every step (work the source does lazily nests under it).
 */
export function watchIterator<T>(source: AsyncIterator<T>, watcher: StreamWatcher<T>, ctx?: Context): AsyncGenerator<T> {
  let started = false;
  let ended = false;
  const end = (how: StreamEndKind, error?: unknown) => {
    if (ended) return;
    ended = true;
    guarded(() => watcher.end(how, error));
  };
  const step = async (op: () => Promise<IteratorResult<T>>, doneAs: StreamEndKind): Promise<IteratorResult<T>> => {
    if (!started) {
      started = true;
      if (watcher.start) guarded(() => watcher.start!());
    }
    let r: IteratorResult<T>;
    try {
      r = await (ctx ? context.with(ctx, op) : op());
    } catch (err) {
      end('error', err);
      throw err;
    }
    if (r.done) end(doneAs);
    else if (!ended && watcher.item) guarded(() => watcher.item!(r.value));
    return r;
  };
  const wrapped: AsyncGenerator<T> = {
    next: (...args: [] | [unknown]) => step(() => source.next(...args), 'done'),
    return: async (value?: unknown) => {
      // Left early: the end is the consumer's leaving, whatever the source does on its way out.
      end('cancelled');
      if (!source.return) return { done: true, value } as IteratorResult<T>;
      const op = () => source.return!(value);
      return ctx ? context.with(ctx, op) : op();
    },
    throw: (err?: unknown) => {
      if (!source.throw) {
        end('error', err);
        return Promise.reject(err);
      }
      return step(() => source.throw!(err), 'done');
    },
    [Symbol.asyncIterator]() {
      return this;
    },
    [Symbol.asyncDispose]: async () => {
      await wrapped.return(undefined);
    },
  } as AsyncGenerator<T>;
  return wrapped;
}

/**
 * Follows `source` for `watcher` and returns a stream with its chunks, pulled from the source
 * only when the consumer asks for one (no read-ahead); `ctx` as in {@link watchIterator}.
 */
export function watchReadableStream<T>(source: ReadableStream<T>, watcher: StreamWatcher<T>, ctx?: Context): ReadableStream<T> {
  const reader = source.getReader();
  const it = watchIterator<T>(
    {
      next: () => reader.read() as Promise<IteratorResult<T>>,
      return: async (reason?: unknown) => {
        await reader.cancel(reason);
        return { done: true, value: undefined };
      },
    },
    watcher,
    ctx,
  );
  return new ReadableStream<T>(
    {
      async pull(controller) {
        let r: IteratorResult<T>;
        try {
          r = await it.next();
        } catch (err) {
          controller.error(err);
          return;
        }
        if (r.done) controller.close();
        else controller.enqueue(r.value);
      },
      async cancel(reason) {
        await it.return(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

function guarded(fn: () => void): void {
  try {
    fn();
  } catch (err) {
    logger.warnOnce('stream-watcher', `a stream watcher failed; the stream goes on: ${errorMessage(err)}`);
  }
}

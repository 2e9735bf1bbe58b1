import { context, type Context } from '@opentelemetry/api';
import { TextCapture } from '../util/capture.js';
import type { ObsObservation } from './observation.js';
import { recordErrorOnSpan } from './record-error.js';

/** Default cap on what a streamed result keeps for the observation's output. */
export const DEFAULT_STREAM_CAPTURE_CHARS = 1_000_000;

/** Called once when a wrapped stream ends: its collected output, or how it ended early. */
export type StreamEnd = (output: unknown, how: 'done' | 'error' | 'cancelled', error?: unknown) => void;

/** Whether `value` is an async generator/iterator we can wrap without changing its behaviour. */
export function isAsyncIterator(value: unknown): value is AsyncGenerator<unknown, unknown, unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as AsyncGenerator)[Symbol.asyncIterator] === 'function' &&
    typeof (value as AsyncGenerator).next === 'function'
  );
}

/** Whether `value` is a WHATWG ReadableStream. */
export function isReadableStream(value: unknown): value is ReadableStream<unknown> {
  return typeof ReadableStream !== 'undefined' && value instanceof ReadableStream;
}

/**
 * Wraps an async generator: each step runs in `ctx` (so spans started by the generator body
 * nest under the observation), yielded values are collected (none when `maxChars` is 0: the
 * output is not captured), and `onEnd` fires once on completion, error, or when the consumer
 * stops early (`return()`).
 */
export function wrapAsyncGenerator<T>(
  source: AsyncGenerator<T>,
  ctx: Context,
  onEnd: StreamEnd,
  maxChars = DEFAULT_STREAM_CAPTURE_CHARS,
): AsyncGenerator<T> {
  const collected = maxChars > 0 ? new StreamCollector(maxChars) : undefined;
  let ended = false;
  const finish = (how: 'done' | 'error' | 'cancelled', error?: unknown) => {
    if (ended) return;
    ended = true;
    onEnd(collected?.value(), how, error);
  };
  const step = async (op: () => Promise<IteratorResult<T>>, how: 'done' | 'cancelled'): Promise<IteratorResult<T>> => {
    try {
      const r = await context.with(ctx, op);
      if (r.done) finish(how);
      else collected?.push(r.value);
      return r;
    } catch (err) {
      finish('error', err);
      throw err;
    }
  };
  const wrapped: AsyncGenerator<T> = {
    next: (...args: [] | [unknown]) => step(() => source.next(...args), 'done'),
    return: (value?: unknown) => step(() => source.return(value as T), 'cancelled'),
    throw: (err?: unknown) => step(() => source.throw(err), 'done'),
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
 * Wraps a ReadableStream without buffering it: chunks pass through as they arrive, a copy of
 * their text is collected (capped; nothing when `maxChars` is 0) and `onEnd` fires when the
 * stream is consumed, errors or is cancelled by the reader.
 */
export function wrapReadableStream<T>(
  source: ReadableStream<T>,
  onEnd: StreamEnd,
  maxChars = DEFAULT_STREAM_CAPTURE_CHARS,
): ReadableStream<T> {
  const reader = source.getReader();
  const collected = maxChars > 0 ? new StreamCollector(maxChars) : undefined;
  let ended = false;
  const finish = (how: 'done' | 'error' | 'cancelled', error?: unknown) => {
    if (ended) return;
    ended = true;
    onEnd(collected?.value(), how, error);
  };
  return new ReadableStream<T>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          finish('done');
          controller.close();
          return;
        }
        collected?.push(value);
        controller.enqueue(value);
      } catch (err) {
        finish('error', err);
        controller.error(err);
      }
    },
    cancel(reason) {
      finish('cancelled', reason);
      return reader.cancel(reason);
    },
  });
}

/** How an error thrown by observed code is recorded (adapters may soften client errors). */
export type ErrorRecorder = (obs: ObsObservation, error: unknown) => void;

/** The default: level ERROR, status message, OTel status ERROR and an exception event. */
export const recordObservationError: ErrorRecorder = (obs, error) => recordErrorOnSpan(obs.otelSpan, error);

/** Ends `obs` the way a wrapped stream ended. */
export function endObservationOnStreamEnd(
  obs: ObsObservation,
  captureOutput: boolean,
  recordError: ErrorRecorder = recordObservationError,
): StreamEnd {
  return (output, how, error) => {
    try {
      if (captureOutput) obs.update({ output });
      if (how === 'error') recordError(obs, error);
      if (how === 'cancelled') obs.update({ metadata: { cancelled: true } });
    } finally {
      obs.end();
    }
  };
}

/**
 * Collects streamed values for an output: text chunks join into one capped string, other values
 * into a list (at most 1,000); a single non-text value is kept as it is.
 */
export class StreamCollector {
  private text?: TextCapture;
  private items: unknown[] = [];
  private count = 0;

  constructor(private readonly maxChars = DEFAULT_STREAM_CAPTURE_CHARS) {}

  /** Whether nothing was pushed. */
  get empty(): boolean {
    return this.count === 0;
  }

  push(value: unknown): void {
    this.count++;
    if (typeof value === 'string' || value instanceof Uint8Array) {
      this.text ??= new TextCapture(this.maxChars);
      this.text.push(value);
    } else if (this.items.length < 1000) this.items.push(value);
  }

  value(): unknown {
    if (this.text && this.items.length === 0) return this.text.text();
    if (this.text) return [...this.items, this.text.text()];
    return this.count === 1 ? this.items[0] : this.items;
  }
}

/**
 * What `observe` does with a result that streams: async generators and `ReadableStream`s are
 * followed with the one end-once wrapper (`end-once.ts`), their items collected (capped) for the
 * observation's output, which ends once with how the stream ended.
 */
import type { Context } from '@opentelemetry/api';
import { TextCapture } from '../util/capture.js';
import type { ObsObservation } from './observation.js';
import { recordErrorOnSpan } from './record-error.js';
import { type StreamWatcher, watchIterator, watchReadableStream } from './end-once.js';

/** Default cap on what a streamed result keeps for the observation's output. */
export const DEFAULT_STREAM_CAPTURE_CHARS = 1_000_000;

/** Called once when a wrapped stream ends: its collected output, or how it ended early. */
export type StreamEnd = (output: unknown, how: 'done' | 'error' | 'cancelled', error?: unknown) => void;

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
  return watchIterator(source, collectingWatcher(onEnd, maxChars), ctx);
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
  return watchReadableStream(source, collectingWatcher(onEnd, maxChars));
}

/** A watcher that collects the items (up to `maxChars`) and hands them to `onEnd`. */
function collectingWatcher<T>(onEnd: StreamEnd, maxChars: number): StreamWatcher<T> {
  const collected = maxChars > 0 ? new StreamCollector(maxChars) : undefined;
  return {
    item: collected ? (value) => collected.push(value) : undefined,
    end: (how, error) => onEnd(collected?.value(), how, error),
  };
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

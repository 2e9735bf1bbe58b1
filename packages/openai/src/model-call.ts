/**
 * One OpenAI call as one obs observation: started with what the request says, ended once with
 * what the response (or the stream's chunks, as the caller consumes them) says. A failed call is
 * level ERROR; an aborted one, or a stream the caller stopped reading before the model finished,
 * level WARNING with what arrived so far. Reading never throws into the caller.
 */
import type { Context } from '@opentelemetry/api';
import { type ObsObservation, startObservation } from '@obs/core';
import { activeContextFor, errorMessage, logger, recordErrorOnSpan } from '@obs/core/kit';
import type { CallResult, Endpoint, StreamReader } from './endpoint.js';

/** Options of one observed client (see `observeOpenAI`). */
export interface CallOptions {
  name?: string;
  metadata?: Record<string, unknown>;
}

export class ModelCall {
  private ended = false;
  private completionStart: Date | undefined;

  private constructor(
    private readonly observation: ObsObservation,
    private readonly endpoint: Endpoint,
  ) {}

  /** Starts the call's observation under the active one. */
  static start(endpoint: Endpoint, body: Record<string, unknown>, options: CallOptions): ModelCall {
    const request = endpoint.request(body);
    const metadata = options.metadata || request.metadata ? { ...options.metadata, ...request.metadata } : undefined;
    const observation = startObservation(
      options.name ?? endpoint.name,
      {
        model: typeof request.model === 'string' ? request.model : undefined,
        input: request.input,
        modelParameters: request.modelParameters,
        metadata: metadata && Object.keys(metadata).length > 0 ? metadata : undefined,
      },
      { asType: endpoint.type },
    );
    return new ModelCall(observation, endpoint);
  }

  /** The context the SDK call runs in: the observation is its active span. */
  context(): Context {
    return activeContextFor(this.observation);
  }

  /** A parsed, non-streamed response. */
  finish(value: unknown): void {
    if (this.ended) return;
    this.end(this.read(() => this.endpoint.response(value)));
  }

  /** The request, the parsing, or the stream failed; an abort is a WARNING. */
  fail(error: unknown, partial?: CallResult): void {
    if (this.ended) return;
    if (isAbort(error)) {
      this.end({ ...partial, level: 'WARNING', statusMessage: `aborted: ${errorMessage(error)}` });
      return;
    }
    if (partial) this.write(partial);
    recordErrorOnSpan(this.observation.otelSpan, error);
    this.ended = true;
    this.observation.end();
  }

  /** The caller read the raw response: its body is theirs, so the output is not recorded. */
  raw(): void {
    if (this.ended) return;
    this.end({ statusMessage: 'the caller read the raw response (asResponse()); output not recorded' });
  }

  /** Wraps a stream's iterator so its chunks are read as the caller consumes them. */
  observeStream(iterator: AsyncIterator<unknown>): AsyncIterator<unknown> {
    const reader = this.endpoint.stream?.();
    if (!reader || this.ended) return iterator;
    const settle = (how: 'done' | 'cancelled') => {
      const result = this.read(() => reader.result());
      if (result.finished) this.end(result);
      else {
        const why = how === 'done' ? 'the stream ended before the model finished' : 'the caller stopped reading the stream before it ended';
        this.end({ ...result, level: result.level ?? 'WARNING', statusMessage: result.statusMessage ?? why });
      }
    };
    return {
      next: async (...args: [] | [unknown]) => {
        let step: IteratorResult<unknown>;
        try {
          step = await iterator.next(...args);
        } catch (err) {
          this.fail(
            err,
            this.read(() => reader.result()),
          );
          throw err;
        }
        if (step.done) settle('done');
        else if (this.readChunk(reader, step.value) && !this.completionStart) this.completionStart = new Date();
        return step;
      },
      return: async (value?: unknown) => {
        settle('cancelled');
        return iterator.return ? iterator.return(value) : { done: true, value };
      },
      throw: async (err?: unknown) => {
        this.fail(
          err,
          this.read(() => reader.result()),
        );
        if (iterator.throw) return iterator.throw(err);
        throw err;
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    } as AsyncIterator<unknown>;
  }

  private end(result: CallResult): void {
    this.ended = true;
    this.write(result);
    this.observation.end();
  }

  private write(result: CallResult): void {
    this.observation.update({
      output: result.output,
      model: typeof result.model === 'string' ? result.model : undefined,
      usageDetails: result.usageDetails,
      completionStartTime: this.completionStart,
      level: result.level,
      statusMessage: result.statusMessage,
    });
  }

  private readChunk(reader: StreamReader, chunk: unknown): boolean {
    try {
      return reader.read(chunk);
    } catch (err) {
      logger.warnOnce(
        `openai-chunk-${this.endpoint.name}`,
        `@obs/openai could not read a ${this.endpoint.name} chunk: ${errorMessage(err)}`,
      );
      return false;
    }
  }

  /** Runs a reader; a reader that throws costs the recorded output, never the caller's call. */
  private read<T extends object>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      logger.warnOnce(
        `openai-result-${this.endpoint.name}`,
        `@obs/openai could not read a ${this.endpoint.name} result: ${errorMessage(err)}`,
      );
      return {} as T;
    }
  }
}

/** The SDK's `APIUserAbortError`, or a fetch `AbortError`. */
function isAbort(error: unknown): boolean {
  const name = (error as { name?: unknown; constructor?: { name?: unknown } } | null)?.constructor?.name;
  return name === 'APIUserAbortError' || (error instanceof Error && error.name === 'AbortError');
}

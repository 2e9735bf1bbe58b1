/**
 * One model SDK call as one obs observation: started with what the request says (starting obs
 * first, `initObs()`, when nothing has), ended exactly once with what the response, or the
 * stream's chunks as the caller consumes them, say. A failed call is level ERROR; an aborted
 * one, or a stream the caller left or that ended before the model's last chunk, level WARNING
 * with what arrived so far. Every reader runs under the adapter's guard: a mapping bug is one
 * log line and a field less, never a changed call.
 */
import type { Context } from '@opentelemetry/api';
import type { AdapterGuard } from '../http/adapter-guard.js';
import { getObsHandle, initObs } from '../setup/init.js';
import type { ObsObservation } from '../tracing/observation.js';
import { errorMessage, recordErrorOnSpan } from '../tracing/record-error.js';
import { activeContextFor, startObservation } from '../tracing/start.js';
import { watchIterator } from '../tracing/end-once.js';
import type { CallResult, ModelEndpoint, StreamReader } from './endpoint.js';

/** What every call of one observed client carries (the wrapper's options). */
export interface CallSettings {
  /** The observation's name; default the endpoint's, e.g. `anthropic.messages.create`. */
  name?: string;
  /** Metadata on every observation of the client (a key the request's reader sets wins). */
  metadata?: Record<string, unknown>;
}

/** How {@link ModelCall.watch} tells why a stream ended early. */
export interface WatchOptions {
  /** The stream's abort signal (an SDK's `stream.controller.signal`): an early end after it fired is an abort. */
  signal?: AbortSignal;
}

export class ModelCall {
  private ended = false;
  private completionStart: Date | undefined;

  private constructor(
    private readonly observation: ObsObservation,
    private readonly endpoint: ModelEndpoint<never>,
    private readonly guard: AdapterGuard,
    private readonly startKeys: ReadonlySet<string>,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /**
   * Starts the call's observation under the active one; `undefined` (the call then runs
   * untraced) when obs cannot start or the request's reader fails. `signal`: the abort signal
   * the caller gave the call, if any: an error or an early end after it fired is an abort.
   */
  static start<R>(
    endpoint: ModelEndpoint<R>,
    request: R,
    settings: CallSettings,
    guard: AdapterGuard,
    signal?: AbortSignal,
  ): ModelCall | undefined {
    return guard.run(() => {
      getObsHandle() ?? initObs();
      const start = endpoint.request(request);
      const metadata = settings.metadata || start.metadata ? { ...settings.metadata, ...start.metadata } : undefined;
      const observation = startObservation(
        settings.name ?? endpoint.name,
        {
          model: typeof start.model === 'string' ? start.model : undefined,
          input: start.input,
          modelParameters: start.modelParameters,
          metadata: metadata && Object.keys(metadata).length > 0 ? metadata : undefined,
        },
        { asType: endpoint.type },
      );
      // `new this`: a class that names itself inside its body is renamed by the bundler.
      return new this(observation, endpoint as ModelEndpoint<never>, guard, new Set(metadata ? Object.keys(metadata) : []), signal);
    });
  }

  /** The context the SDK's method runs in: the observation is its active span. */
  context(): Context {
    return activeContextFor(this.observation);
  }

  /** A complete (not streamed) response. */
  finish(value: unknown): void {
    if (this.ended) return;
    this.end(this.read(() => this.endpoint.response(value)));
  }

  /** The request, the parsing or the stream failed; an abort is a WARNING. */
  fail(error: unknown, partial?: CallResult): void {
    if (this.ended) return;
    // An SDK may surface the caller's abort as an error of its own (AWS SDK 3.5xx: `Error: aborted`).
    if (isAbort(error) || this.signal?.aborted) {
      this.end({ ...partial, level: 'WARNING', statusMessage: `aborted: ${errorMessage(isAbort(error) ? error : this.signal!.reason)}` });
      return;
    }
    this.ended = true;
    if (partial) this.write(partial);
    recordErrorOnSpan(this.observation.otelSpan, error);
    this.observation.end();
  }

  /** The caller took the raw response: its body is theirs, so the output is not recorded. */
  raw(): void {
    this.end({ statusMessage: 'the caller read the raw response; output not recorded' });
  }

  /** Ends the call with `result` as it is (a follower that could not read the result says why). */
  end(result: CallResult): void {
    if (this.ended) return;
    this.ended = true;
    this.write(result);
    this.observation.end();
  }

  /**
   * The caller's stream, watched: each chunk goes to the endpoint's stream reader as the caller
   * takes it, the first chunk with output is the completion start, and the call ends with the
   * stream (WARNING when the caller left it, or it ended, before the model's last chunk).
   */
  watch<T>(iterator: AsyncIterator<T>, options: WatchOptions = {}): AsyncGenerator<T> {
    const reader = this.guard.run(() => this.endpoint.stream?.()) ?? NO_READER;
    const result = () => this.read(() => reader.result());
    return watchIterator(iterator, {
      item: (chunk) => {
        if (this.ended) return;
        const output = this.guard.run(() => reader.read(chunk), false);
        if (output && !this.completionStart) this.completionStart = new Date();
      },
      end: (how, error) => {
        if (how === 'error') return this.fail(error, result());
        const r = result();
        if (r.finished || reader === NO_READER) return this.end(r);
        const signal = options.signal ?? this.signal;
        const why = signal?.aborted
          ? `aborted: ${errorMessage(signal.reason)}`
          : how === 'done'
            ? 'the stream ended before the model finished'
            : 'the caller stopped reading the stream before it ended';
        this.end({ ...r, level: r.level ?? 'WARNING', statusMessage: r.statusMessage ?? why });
      },
    });
  }

  /** {@link watch} for an async iterable (a generator, an SDK's stream object). */
  watchIterable<T>(iterable: AsyncIterable<T>, options?: WatchOptions): AsyncGenerator<T> {
    return this.watch(iterable[Symbol.asyncIterator](), options);
  }

  private write(result: CallResult): void {
    let metadata = result.metadata;
    if (metadata && this.startKeys.size > 0) {
      metadata = Object.fromEntries(Object.entries(metadata).filter(([k]) => !this.startKeys.has(k)));
    }
    this.observation.update({
      output: result.output,
      model: typeof result.model === 'string' ? result.model : undefined,
      usageDetails: result.usageDetails,
      costDetails: result.costDetails,
      completionStartTime: this.completionStart,
      metadata: metadata && Object.keys(metadata).length > 0 ? metadata : undefined,
      level: result.level,
      statusMessage: result.statusMessage,
    });
  }

  /** Runs a reader; a reader that throws costs the recorded fields, never the caller's call. */
  private read<T extends object>(fn: () => T): T {
    return this.guard.run(fn, {} as T);
  }
}

/** The reader of an endpoint that has none: nothing read, the stream's end is the call's. */
const NO_READER: StreamReader = { read: () => false, result: () => ({ finished: true }) };

/** A user's abort: the SDK's `APIUserAbortError`, or a fetch `AbortError`. */
function isAbort(error: unknown): boolean {
  const e = error as { name?: unknown; constructor?: { name?: unknown } } | null;
  return e?.constructor?.name === 'APIUserAbortError' || e?.name === 'AbortError';
}

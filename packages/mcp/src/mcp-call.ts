/**
 * One MCP request as one obs observation, on either side: started with the method's name, type
 * and arguments, ended once with the result's content. A tool result with `isError: true`, a
 * JSON-RPC error or a thrown handler is level ERROR; a request the caller cancelled, WARNING.
 * Reading a result never throws into the app (the guard reports it once and drops the output).
 */
import { context, type SpanContext } from '@opentelemetry/api';
import { type ObsObservation, startObservation } from '@obs/core';
import { activeContextFor, AdapterGuard, type Dict, errorMessage, recordErrorOnSpan } from '@obs/core/kit';
import { observationName, observationType, requestInput, resultError, resultOutput } from './methods.js';
import { traceMeta } from './trace-meta.js';

export const guard = new AdapterGuard('@obs/mcp');

export class McpCall {
  private ended = false;

  private constructor(
    private readonly observation: ObsObservation,
    private readonly method: string,
  ) {}

  /** Starts the request's observation under `parent` (the caller's, from `_meta`), else the active one. */
  static start(method: string, params: unknown, metadata: Dict, parent?: SpanContext): McpCall {
    const observation = startObservation(
      observationName(method, params),
      { input: requestInput(params), metadata },
      { asType: observationType(method), ...(parent ? { parentSpanContext: parent } : {}) },
    );
    return new McpCall(observation, method);
  }

  /**
   * Runs `fn` (the SDK's request, or the app's handler) with the observation active and ends the
   * observation with what `fn` returns, throws, or its promise settles to. Returns what `fn`
   * returned, unchanged; `cancelled` says, on a rejection, whether the caller aborted.
   */
  run<T>(fn: () => T, cancelled: () => boolean = () => false): T {
    let result: T;
    try {
      result = context.with(activeContextFor(this.observation), fn);
    } catch (err) {
      this.fail(err);
      throw err;
    }
    if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') {
      (result as PromiseLike<unknown>).then(
        (value) => this.finish(value),
        (err: unknown) => this.fail(err, cancelled()),
      );
    } else this.finish(result);
    return result;
  }

  /** `traceparent` / `tracestate` naming this observation as the peer's parent. */
  traceMeta(): Record<string, string> {
    return traceMeta(this.observation.otelSpan.spanContext());
  }

  /** The result arrived (or the handler returned it). */
  private finish(result: unknown): void {
    if (this.ended) return;
    this.ended = true;
    guard.run(() => {
      const error = resultError(result);
      this.observation.update({
        output: resultOutput(this.method, result),
        ...(error !== undefined ? { level: 'ERROR' as const, statusMessage: error } : {}),
      });
    });
    this.observation.end();
  }

  /** The request failed: a JSON-RPC error, a timeout, a closed connection, a thrown handler. */
  private fail(error: unknown, cancelled = false): void {
    if (this.ended) return;
    this.ended = true;
    if (cancelled) this.observation.update({ level: 'WARNING', statusMessage: `cancelled: ${errorMessage(error)}` });
    else recordErrorOnSpan(this.observation.otelSpan, error);
    this.observation.end();
  }
}

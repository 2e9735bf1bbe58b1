/** The handler's options, their defaults, and the run metadata keys it reads. */
import type { MaskFunction } from '@obs/core';

/** Options of {@link CallbackHandler}. Every field is optional. */
export interface CallbackHandlerOptions {
  /** `user.id` of every observation of the run tree (run metadata `obsUserId` wins). */
  userId?: string;
  /** `session.id` of every observation of the run tree (run metadata `obsSessionId` wins). */
  sessionId?: string;
  /** Trace tags, merged with the root run's tags and run metadata `obsTags`. */
  tags?: string[];
  /** `obs.version` of every observation. */
  version?: string;
  /** Trace metadata (`obs.trace.metadata.*`) of every observation. */
  traceMetadata?: Record<string, unknown>;
  /** Trace name; by default the trace keeps the name of its root (the request, or the root run). */
  traceName?: string;
  /**
   * Rewrites what the handler captures before it is written: every input, output and metadata
   * value (retrieved documents, tool calls, agent actions and interrupt values included) and the
   * trace metadata. Called with the structured value (`{ data }`), not its JSON. A mask that
   * throws replaces the value with `MASK_FAILED`.
   */
  mask?: MaskFunction;
  /**
   * Handle callbacks on LangChain's shared background queue (`true`) instead of inline where
   * LangChain dispatches them (default `false`, whatever `LANGCHAIN_CALLBACKS_BACKGROUND` says).
   * Parents and start times are right either way; on the queue, end times and the first-token
   * time are those of the moment the queue reached the callback, and spans are complete only
   * after `await handler.flush()`.
   */
  background?: boolean;
  /**
   * A run tree with no LangChain callback for this long is abandoned (e.g. a stream the consumer
   * stopped reading): its open observations are ended, marked `abandoned`. Default 10 minutes.
   */
  abandonAfterMs?: number;
  /**
   * Runs may end (or start) after their root run: a branch still running when a sibling failed, a
   * side chain nobody awaited, a model that ignores an abort. They end with their own callbacks.
   * A run tree whose root run, or whose enclosing observation (the request, a
   * `startActiveObservation`), has ended and that had no LangChain callback for this long is
   * abandoned: a `.stream()` the consumer broke out of is visible within seconds. Default 5 000.
   */
  abandonAfterParentEndMs?: number;
  /** Most runs kept open at once; past it the oldest run tree is ended as abandoned. Default 10 000. */
  maxOpenRuns?: number;
}

/** Run metadata keys the handler reads and does not copy into observation metadata. */
export const CONTROL_METADATA_KEYS = new Set(['obsUserId', 'obsSessionId', 'obsTags', 'obsPrompt']);

export const DEFAULT_ABANDON_AFTER_MS = 10 * 60_000;
export const DEFAULT_ABANDON_AFTER_PARENT_END_MS = 5_000;
export const DEFAULT_MAX_OPEN_RUNS = 10_000;

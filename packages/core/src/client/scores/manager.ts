import { isSpanContextValid, trace as otelTrace } from '@opentelemetry/api';
import { drainWithin, timeoutOf, type DrainTimeoutOptions } from '../../delivery/drain.js';
import { logger } from '../../util/logger.js';
import { describeError } from '../util/describe.js';
import type { ScoreQueue } from './queue.js';
import type { ScoreBody, ScoreTarget, TargetedScoreBody } from './types.js';
import { prepareScore } from './validate.js';

/** What the score manager needs from its client. */
export interface ScoreManagerConfig {
  /** `undefined` when the client is not configured: every method is then a no-op. */
  queue: ScoreQueue | undefined;
  /** Environment stamped on scores that name none. */
  environment?: string;
  /** How long `flush()` and `shutdown()` wait at most, in ms. */
  timeoutMs: number;
}

function targetOf(observation: unknown, needSpanId: boolean): { traceId: string; observationId?: string } | string {
  if (typeof observation !== 'object' || observation === null) return 'the observation must be an object with id and traceId';
  const { id, traceId } = observation as { id?: unknown; traceId?: unknown };
  if (typeof traceId !== 'string' || traceId === '') return 'the observation has no traceId';
  if (!needSpanId) return { traceId };
  if (typeof id !== 'string' || id === '') return 'the observation has no id';
  return { traceId, observationId: id };
}

function activeTarget(needSpanId: boolean): { traceId: string; observationId?: string } | string {
  const span = otelTrace.getActiveSpan();
  const ctx = span?.spanContext();
  if (!ctx || !isSpanContextValid(ctx)) return 'there is no active span';
  return needSpanId ? { traceId: ctx.traceId, observationId: ctx.spanId } : { traceId: ctx.traceId };
}

/** `body` aimed at `target`, or the problem (`target` a string) that left it without one. */
function withTarget(body: unknown, target: { traceId: string; observationId?: string } | string): { body: unknown } | { problem: string } {
  if (typeof target === 'string') return { problem: target };
  // Non-objects pass through unchanged so the validator reports what they really are.
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { body };
  return { body: { ...(body as object), sessionId: undefined, datasetRunId: undefined, ...target } };
}

/**
 * `client.score`: queues scores for batched delivery to `POST /api/public/scores`.
 * No method ever throws: invalid input is logged at error level and dropped (contract 7.1).
 */
export class ScoreManager {
  constructor(private readonly config: ScoreManagerConfig) {}

  /** Queues a score for a trace, observation, session or experiment run (`datasetRunId`) named in `body`. */
  create(body: ScoreBody): void {
    this.accept(() => ({ body }));
  }

  /** Queues a score of `observation` (its `id` and `traceId`). */
  observation(observation: ScoreTarget, body: TargetedScoreBody): void {
    this.accept(() => withTarget(body, targetOf(observation, true)));
  }

  /** Queues a score of the trace `observation` belongs to. */
  trace(observation: Pick<ScoreTarget, 'traceId'>, body: TargetedScoreBody): void {
    this.accept(() => withTarget(body, targetOf(observation, false)));
  }

  /** Queues a score of the active span (OpenTelemetry context). */
  activeObservation(body: TargetedScoreBody): void {
    this.accept(() => withTarget(body, activeTarget(true)));
  }

  /** Queues a score of the trace of the active span. */
  activeTrace(body: TargetedScoreBody): void {
    this.accept(() => withTarget(body, activeTarget(false)));
  }

  /**
   * Sends everything queued; resolves when the server has answered every score queued so far, or
   * after `timeoutMs` (default: the client's `shutdownTimeout`; one line says what is still
   * buffered, and it stays buffered and retried). Never rejects.
   */
  flush(options?: DrainTimeoutOptions): Promise<void> {
    return this.drain('flush', options);
  }

  /** Stops the flush timer and flushes within `timeoutMs`; what is left then is dropped (one line). */
  shutdown(options?: DrainTimeoutOptions): Promise<void> {
    return this.drain('shutdown', options);
  }

  private async drain(mode: 'flush' | 'shutdown', options: DrainTimeoutOptions | undefined): Promise<void> {
    const queue = this.config.queue;
    if (!queue) return;
    try {
      if (mode === 'shutdown') queue.close();
      await drainWithin([queue], timeoutOf(options, this.config.timeoutMs), { mode, label: `score ${mode}` });
    } catch (err) {
      logger.error(`Obs score ${mode} failed: ${describeError(err)}`);
    }
  }

  /** `build` returns the score to check, or the problem that kept it from being built. */
  private accept(build: () => { body: unknown } | { problem: string }): void {
    const queue = this.config.queue;
    if (!queue) return;
    try {
      const built = build();
      const checked =
        'problem' in built ? { ok: false as const, reason: built.problem } : prepareScore(built.body, this.config.environment);
      if (!checked.ok) {
        logger.error(`Obs dropped an invalid score: ${checked.reason}`);
        return;
      }
      void queue.enqueue(checked.score);
    } catch (err) {
      logger.error(`Obs dropped a score: ${describeError(err)}`);
    }
  }
}

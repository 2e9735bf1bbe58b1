/**
 * The retry policy of everything obs sends, as one pure function: from what an attempt came to
 * (`outcome.ts`'s verdict), the request's tries so far and the state the last answers left
 * (consecutive failures, a refusing server, a refusal hold, the deadlines of the drains waiting),
 * the next step and the next state. A delivered request is done; one refused as too large is
 * split; a refusal is dropped at once (and may hold later requests back); a failure worth a retry
 * waits (the server's `Retry-After`, else exponential backoff with jitter) within the request's
 * attempts and its budget from its first failure, and, while a drain waits, at most half of what
 * is left before its deadline, so a server that recovers before the deadline gets another
 * attempt. In the exit flush's last round nothing is retried. The sender (`sender.ts`) keeps the
 * state and does what the step says; nothing here has a clock or a timer of its own.
 */
import { backoffDelay } from '../util/retry.js';
import type { SendOutcome } from './outcome.js';

/** How long and how often a request is retried, and how long it waits in between. */
export interface RetryPolicy {
  /** Most attempts per request; default: as many as the budget allows. */
  maxAttempts?: number;
  /** How long a request is retried after its first failure, in ms. */
  retryBudgetMs: number;
  /** First backoff wait, in ms (doubled per failure, jittered). */
  backoffMs: number;
  /** Ceiling of a backoff wait, in ms. */
  maxBackoffMs: number;
}

/** What the last answers left: the policy's state between two steps. */
export interface RetryState {
  /** Consecutive failed attempts: the backoff exponent. */
  failures: number;
  /** The last answer was a refusal: one request at a time until one is delivered. */
  refusing: boolean;
  /** Until then requests are refused without being sent (a bad certificate, a name that does not resolve). */
  hold?: { until: number; why: string };
  /** Deadlines of the drains waiting now (ms since the epoch). */
  deadlines: readonly number[];
}

/** A request's attempts so far, this one included. */
export interface Tries {
  items: number;
  attempts: number;
  /** Time of its first failed attempt: the budget counts from there. */
  failedSince?: number;
  /** Its own limit of attempts, over the policy's (an API call's `maxRetries`). */
  maxAttempts?: number;
}

export type Step =
  | { next: 'done' }
  /** Too large: split it in two and send the halves. */
  | { next: 'split' }
  | { next: 'retry'; reason: string; waitMs: number; failedSince: number }
  /**
   * Never sent again. `reason`: the last failure; `why`: the loss as a line says it; `failing`:
   * the end of retries through an outage (said as a failure first); `unanswered`: it may have
   * arrived (a timeout, a connection lost mid-request).
   */
  | { next: 'drop'; reason: string; why: string; failing?: boolean; unanswered?: boolean };

/** Shortest retry wait while a drain waits, in ms: near its deadline, attempts do not turn into a busy loop. */
export const MIN_DRAIN_RETRY_MS = 100;

/** `ms`, or while drains wait at most half of what is left before the nearest deadline. */
export function capByDeadlines(ms: number, deadlines: readonly number[], now: number): number {
  if (deadlines.length === 0) return ms;
  return Math.min(ms, Math.max(MIN_DRAIN_RETRY_MS, (Math.min(...deadlines) - now) / 2));
}

/** The step after `outcome`, and the state after it. `unit` names an item in a line (`spans`: a span). */
export function nextStep(
  outcome: SendOutcome,
  tries: Tries,
  state: RetryState,
  policy: RetryPolicy,
  at: { now: number; unit: string; lastRound: boolean },
): [RetryState, Step] {
  const { now } = at;
  switch (outcome.kind) {
    case 'delivered':
      return [{ ...state, failures: 0, refusing: false }, { next: 'done' }];
    case 'too-large': {
      if (tries.items > 1) return [state, { next: 'split' }];
      const why = `the server refused a ${at.unit.replace(/s$/, '')} as too large even alone (${outcome.reason})`;
      return [state, { next: 'drop', reason: why, why }];
    }
    case 'refused': {
      const hold = outcome.holdMs !== undefined ? { until: now + outcome.holdMs, why: outcome.reason } : state.hold;
      return [
        { ...state, refusing: true, hold },
        { next: 'drop', reason: outcome.reason, why: outcome.reason },
      ];
    }
    case 'retry': {
      const { reason } = outcome;
      if (at.lastRound) return [state, { next: 'drop', reason, why: reason, unanswered: outcome.unanswered === true }];
      const failedSince = tries.failedSince ?? now;
      const budget = policy.retryBudgetMs;
      const maxAttempts = tries.maxAttempts ?? policy.maxAttempts;
      const outOfAttempts = maxAttempts !== undefined && tries.attempts >= maxAttempts;
      if (outOfAttempts || now - failedSince >= budget) {
        // Dropped at its first failure (no budget, one attempt): a loss, not the end of an outage.
        const first = tries.attempts === 1 && (outOfAttempts || budget === 0);
        const why = first
          ? reason
          : outOfAttempts
            ? `tried ${tries.attempts} times (${reason})`
            : `retried for ${Math.round(budget / 1000)} s (${reason})`;
        return [state, { next: 'drop', reason, why, failing: tries.attempts > 1 }];
      }
      const wait =
        outcome.retryAfterMs ?? backoffDelay(state.failures, { initialDelayMs: policy.backoffMs, maxDelayMs: policy.maxBackoffMs });
      const waitMs = capByDeadlines(Math.min(wait, Math.max(0, failedSince + budget - now)), state.deadlines, now);
      return [
        { ...state, failures: state.failures + 1 },
        { next: 'retry', reason, waitMs, failedSince },
      ];
    }
  }
}

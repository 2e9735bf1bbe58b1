/**
 * The invocation's spans leave before it ends: Lambda freezes the sandbox the moment the handler's
 * result is handed back, and may never thaw it. The wait is bounded by what the function has left
 * before its timeout (less a margin for the runtime) and by `flushTimeoutMs`; past it, core's
 * flush says in one line what was not delivered, which stays buffered and is retried at the next
 * invocation (lost if the sandbox is reclaimed first).
 */
import type { ObsHandle } from '@obs/core';
import { errorMessage, logger } from '@obs/core/kit';
import type { LambdaContextLike } from './options.js';

export const DEFAULT_FLUSH_TIMEOUT_MS = 5000;
export const DEFAULT_FLUSH_MARGIN_MS = 500;

/** How long an invocation may wait for delivery now. */
export function deliveryBudget(lambda: LambdaContextLike, timeoutMs: number, marginMs: number): number {
  let left = Number.POSITIVE_INFINITY;
  try {
    const remaining = lambda.getRemainingTimeInMillis?.();
    if (typeof remaining === 'number' && Number.isFinite(remaining)) left = remaining - marginMs;
  } catch {
    // A context without a clock (a handler called by hand): only the timeout bounds the wait.
  }
  return Math.max(0, Math.min(timeoutMs, left));
}

/** Delivers everything obs holds (spans, scores, media) within `budgetMs`. Never rejects. */
export async function deliver(handle: ObsHandle, budgetMs: number): Promise<void> {
  try {
    await handle.flush({ timeoutMs: budgetMs });
  } catch (err) {
    logger.warn(`@obs/lambda: delivery failed: ${errorMessage(err)}`);
  }
}

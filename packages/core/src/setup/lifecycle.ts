/**
 * The handle's life cycle over one deadline: `flush()`, `shutdown()`, the exit flush and the
 * signal hooks drain every kind obs delivers (spans, scores, and kinds added later) together,
 * within `shutdownTimeout` unless told otherwise, and say in one line what they could not deliver.
 */
import { drainWithin, timeoutOf, type DeliveryKind, type DrainTimeoutOptions } from '../delivery/drain.js';
import { settleBeforeFlush } from '../util/flush-barrier.js';
import { within } from '../util/within.js';
import type { ShutdownDrains } from './shutdown-hooks.js';

export interface HandleDrains extends ShutdownDrains {
  /** Waits for delivery within `timeoutMs` (default the deadline); what is left stays buffered. */
  flush(options?: DrainTimeoutOptions): Promise<boolean>;
  /** Delivers within `timeoutMs` (default the deadline), drops what is left (one line); then `stop`, within what remains. */
  shutdown(stop: () => Promise<unknown>, options?: DrainTimeoutOptions): Promise<void>;
}

/** The drains of a handle whose kinds are `kinds` and whose deadline is `deadlineMs`. */
export function handleDrains(kinds: readonly DeliveryKind[], deadlineMs: number): HandleDrains {
  // A request's pending `identify` is waited for inside the deadline: its spans are part of the flush.
  const before = settleBeforeFlush;
  return {
    flush: (options) => drainWithin(kinds, timeoutOf(options, deadlineMs), { mode: 'flush', label: 'flush', before }),
    async shutdown(stop, options) {
      const ms = timeoutOf(options, deadlineMs);
      const started = Date.now();
      await drainWithin(kinds, ms, { mode: 'shutdown', label: 'shutdown', before });
      // Providers, processors and timers stop within what is left of the deadline (at least a moment).
      await within(stop(), Math.max(100, ms - (Date.now() - started)));
    },
    exit: () => drainWithin(kinds, deadlineMs, { mode: 'exit', label: 'exit flush', before }),
    signal: (name) => drainWithin(kinds, deadlineMs, { mode: 'shutdown', label: `${name}: shutdown`, before }),
  };
}

/**
 * The handle's life cycle over one deadline: `flush()`, `shutdown()`, the exit flush and the
 * signal hooks drain every kind obs delivers (spans, scores, and kinds added later) together,
 * within `shutdownTimeout` unless told otherwise, and say in one line what they could not deliver.
 * The drains the process ends with share the deadline of the one they follow: the exit flush or a
 * signal's drain that starts while another drain waits, or right after one gave up (`await
 * flush()` at a script's end, then `beforeExit`), ends one `shutdownTimeout` after that drain
 * started, so together they stay within it. A signal whose drain is not over within a moment
 * (`SAY_AFTER_MS`: a healthy server's is, and says nothing) says what is being sent, where, and
 * for how long, and that a second signal quits now.
 */
import { drainWithin, timeoutOf, type DeliveryKind, type DrainTimeoutOptions } from '../delivery/drain.js';
import { settleBeforeFlush } from '../util/flush-barrier.js';
import { logger } from '../util/logger.js';
import { within } from '../util/within.js';
import type { ShutdownDrains, Signal } from './shutdown-hooks.js';

export interface HandleDrains extends ShutdownDrains {
  /** Waits for delivery within `timeoutMs` (default the deadline); what is left stays buffered. */
  flush(options?: DrainTimeoutOptions): Promise<boolean>;
  /** Delivers within `timeoutMs` (default the deadline), drops what is left (one line); then `stop`, within what remains. */
  shutdown(stop: () => Promise<unknown>, options?: DrainTimeoutOptions): Promise<void>;
}

/** How soon after a drain gave up the next one counts as following it (the exit flush after `await flush()`). */
export const FOLLOWS_WITHIN_MS = 1_000;

/** How long a signal's drain may take before it says what it is waiting for (a healthy server's is over by then). */
export const SAY_AFTER_MS = 250;

/**
 * The drains of a handle whose kinds are `kinds` and whose deadline is `deadlineMs`; `target`
 * (the base URL) is named in a signal's line.
 */
export function handleDrains(kinds: readonly DeliveryKind[], deadlineMs: number, target?: string): HandleDrains {
  // A request's pending `identify` is waited for inside the deadline: its spans are part of the flush.
  const before = settleBeforeFlush;
  /** When the drains waiting now started. */
  const running = new Set<{ started: number }>();
  /** The last drain that gave up: when it started and ended. */
  let gaveUp: { started: number; endedAt: number } | undefined;

  const tracked = async (ms: number, drain: (ms: number) => Promise<boolean>): Promise<boolean> => {
    const entry = { started: Date.now() };
    running.add(entry);
    try {
      const delivered = await drain(ms);
      if (!delivered) gaveUp = { started: entry.started, endedAt: Date.now() };
      return delivered;
    } finally {
      running.delete(entry);
    }
  };

  /** What is left of the deadline for a drain the process ends with: a whole one, or the rest of the one it follows. */
  const endingMs = (): number => {
    const now = Date.now();
    let since = now;
    for (const other of running) since = Math.min(since, other.started);
    if (gaveUp && now - gaveUp.endedAt <= FOLLOWS_WITHIN_MS) since = Math.min(since, gaveUp.started);
    return Math.max(0, since + deadlineMs - now);
  };

  return {
    flush: (options) => tracked(timeoutOf(options, deadlineMs), (ms) => drainWithin(kinds, ms, { mode: 'flush', label: 'flush', before })),
    async shutdown(stop, options) {
      const ms = timeoutOf(options, deadlineMs);
      const started = Date.now();
      await tracked(ms, (left) => drainWithin(kinds, left, { mode: 'shutdown', label: 'shutdown', before }));
      // Providers, processors and timers stop within what is left of the deadline (at least a moment).
      await within(stop(), Math.max(100, ms - (Date.now() - started)));
    },
    exit: () => tracked(endingMs(), (ms) => drainWithin(kinds, ms, { mode: 'exit', label: 'exit flush', before })),
    async signal(name, interrupt) {
      const ms = endingMs();
      const started = Date.now();
      // A drain with less than that left is over before a line could help.
      const say =
        ms > SAY_AFTER_MS ? setTimeout(() => sayWhatIsSent(kinds, name, ms - (Date.now() - started), target), SAY_AFTER_MS) : undefined;
      try {
        return await tracked(ms, (left) => drainWithin(kinds, left, { mode: 'shutdown', label: `${name}: shutdown`, before, interrupt }));
      } finally {
        clearTimeout(say);
      }
    },
  };
}

/** The signal's one line, when there is work pending: what goes where, for how long, and how to quit now. */
function sayWhatIsSent(kinds: readonly DeliveryKind[], signal: Signal, ms: number, target: string | undefined): void {
  const pending = kinds.filter((kind) => kind.pending() > 0).map((kind) => `${kind.pending()} ${kind.unit}`);
  if (pending.length === 0) return;
  const again = signal === 'SIGINT' ? 'press Ctrl-C again' : 'send SIGTERM again';
  logger.notice(
    `${signal}: sending ${pending.join(', ')}${target ? ` to ${target}` : ''} before exit, for up to ${(ms / 1000).toFixed(1)} s; ${again} to quit now`,
  );
}

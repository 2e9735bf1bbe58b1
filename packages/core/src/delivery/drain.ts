/**
 * One deadline for everything obs delivers: `drainWithin` waits for every kind (spans, scores,
 * and any kind added later, such as media) at once, and when the deadline comes says in one line
 * what each kind could not deliver. A flush stops waiting and leaves the rest to its retries; a
 * shutdown drops the rest; the exit flush gives every batch one last attempt and then drops what
 * failed. As Sentry's `close(timeout)` and OpenTelemetry's `forceFlush` timeout, the wait is
 * bounded whatever the server does. While a drain waits, each kind's retry waits are cut to leave
 * time for another attempt before its deadline (a server that recovers before it gets what is
 * buffered), and a drain can be interrupted (a second Ctrl-C): then it drops what is left at once.
 */
import { MAX_TIMER_MS } from '../config/numeric-option.js';
import { logger } from '../util/logger.js';

/** What a drain could not deliver of one kind. */
export interface Leftover {
  /** Items dropped without an answer from the server (never sent, or failed in the last try). */
  unsent: number;
  /** Items sent whose answer never came: they may have arrived. */
  inFlight: number;
  /** The last failure, when one is known. */
  reason?: string;
}

/** One kind of data obs delivers, as a drain sees it. */
export interface DeliveryKind {
  /** `spans`, `scores`, `media`: the unit of its counts. */
  readonly unit: string;
  /** Named in a drain's line only when it has something pending or left (media: most apps send none). */
  readonly quiet?: boolean;
  /** Hands over what waits for a batch, and resolves once everything accepted so far is answered. Never rejects. */
  settled(): Promise<void>;
  /** Items accepted and not answered yet. */
  pending(): number;
  /** From now on every batch gets one more attempt, at once, and none after (the exit flush). */
  lastTry(): void;
  /** Ends the last try: what it gave up on. */
  endLastTry(): Leftover;
  /** Stops: drops what is still buffered or in flight and says how much (the drain logs it). */
  abandon(): Leftover;
  /** The drain is over: say what the kind's log holds back (a recovery; at the last drain, losses not said yet). */
  settle(final: boolean): void;
  /**
   * A drain waits until `deadline` (ms since the epoch): retry waits end at the latest halfway
   * to it, so a server that recovers before it gets another attempt. Returns what ends that.
   */
  drainBy?(deadline: number): () => void;
}

/** A kind with nothing to deliver (a client that is not configured, media not uploaded): nothing to wait for. */
export function nothingToDeliver(unit: string): DeliveryKind {
  const none = { unsent: 0, inFlight: 0 };
  return {
    unit,
    settled: async () => undefined,
    pending: () => 0,
    lastTry: () => undefined,
    endLastTry: () => none,
    abandon: () => none,
    settle: () => undefined,
  };
}

/** `flush`: stop waiting at the deadline; `shutdown`: drop what is left then; `exit`: one last try, then drop. */
export type DrainMode = 'flush' | 'shutdown' | 'exit';

export interface DrainOptions {
  mode: DrainMode;
  /** Starts the drain's log line: `flush`, `shutdown`, `SIGTERM: shutdown`, `exit flush`. */
  label: string;
  /** Work to finish first, inside the deadline (a request's pending `identify`). */
  before?: () => Promise<void>;
  /** Resolves (with why, `a second SIGINT`) when the drain must stop at once: what is left is dropped and said. */
  interrupt?: Promise<string>;
}

/**
 * Drains `kinds` together within `timeoutMs`. Resolves true when everything was delivered, false
 * when something was not (said in one line). The deadline's timer keeps the process alive while
 * someone waits: it is the only obs timer that does.
 */
export async function drainWithin(kinds: readonly DeliveryKind[], timeoutMs: number, options: DrainOptions): Promise<boolean> {
  const started = Date.now();
  const ms = Number.isFinite(timeoutMs) && timeoutMs > 0 ? Math.min(timeoutMs, MAX_TIMER_MS) : 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  const waiting = kinds.map((kind) => kind.drainBy?.(started + ms));
  let interruptedBy: string | undefined;
  const interrupted = options.interrupt?.then((why) => {
    interruptedBy = why;
    return 'late' as const;
  });
  const work = (async () => {
    try {
      await options.before?.();
    } catch (err) {
      logger.debug(`${options.label}: ${String(err)}`);
    }
    if (options.mode === 'exit') for (const kind of kinds) kind.lastTry();
    await Promise.all(kinds.map((kind) => kind.settled().catch(() => undefined)));
    return 'done' as const;
  })();
  const result = await Promise.race(interrupted ? [work, late, interrupted] : [work, late]);
  clearTimeout(timer);
  for (const end of waiting) end?.();

  if (result === 'late' && options.mode === 'flush' && !interruptedBy) {
    for (const kind of kinds) kind.settle(false);
    const waiting = kinds
      .filter((kind) => !kind.quiet || kind.pending() > 0)
      .map((kind) => `${kind.pending()} ${kind.unit}`)
      .join(', ');
    logger.warn(`${options.label} timed out after ${seconds(ms)} s: ${waiting} not delivered yet; they stay buffered and are retried`);
    return false;
  }
  let left: Leftover[] = [];
  if (result === 'late') left = kinds.map((kind) => kind.abandon());
  else if (options.mode === 'exit') left = kinds.map((kind) => kind.endLastTry());
  for (const kind of kinds) kind.settle(options.mode !== 'flush');
  if (!left.some((l) => l.unsent + l.inFlight > 0)) return true;
  const after = result === 'late' && !interruptedBy ? ms : Date.now() - started;
  const said = kinds.flatMap((kind, i) => (kind.quiet && left[i]!.unsent + left[i]!.inFlight === 0 ? [] : [describe(kind.unit, left[i]!)]));
  const how = interruptedBy ? `stopped by ${interruptedBy}` : 'gave up';
  logger.error(`${options.label} ${how} after ${seconds(after)} s: ${said.join('; ')}`);
  return false;
}

/** What `flush(options)` and `shutdown(options)` take. */
export interface DrainTimeoutOptions {
  /** The most this call waits, in ms. */
  timeoutMs?: number;
}

/** `options.timeoutMs` when it is a usable number of ms (0 included), else `fallbackMs`. */
export function timeoutOf(options: DrainTimeoutOptions | undefined, fallbackMs: number): number {
  const t = (options as { timeoutMs?: unknown } | undefined)?.timeoutMs;
  return typeof t === 'number' && Number.isFinite(t) && t >= 0 ? t : fallbackMs;
}

function describe(unit: string, left: Leftover): string {
  const why = left.reason ? ` (${left.reason})` : '';
  return `${left.unsent} ${unit} dropped unsent, ${left.inFlight} in flight without an answer${why}`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}

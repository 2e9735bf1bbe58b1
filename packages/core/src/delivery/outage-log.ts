/**
 * What a delivery kind says about failures, in a bounded number of lines: one when an outage
 * starts (with the reason), at most one per `reportEveryMs` while it lasts (buffered and dropped
 * counts, and how often it came back and failed again), and one once it has recovered, said only
 * after the server stayed healthy for `quietMs` (a collector flapping every 500 ms is one outage,
 * not a pair of lines per flap). A loss outside an outage is said at once, and losses of the same
 * kind within `reportEveryMs` after it are summed into one later line. Whatever is held back is
 * said by `settle()`, when a flush or shutdown ends, or by a timer, so nothing is lost silently.
 */
import { logger } from '../util/logger.js';

/** Counts an outage report needs from the delivery queue. */
export interface OutageCounts {
  /** Items accepted and not answered yet: waiting, buffered for retry, or in flight. */
  buffered(): number;
}

/** Default interval between "still failing" lines. */
export const OUTAGE_REPORT_EVERY_MS = 30_000;

/** How long the server must stay healthy before an outage is said to be over. */
export const RECOVERY_QUIET_MS = 5_000;

export interface OutageLogOptions {
  /** Between "still failing" lines, and between lines of losses outside an outage; default 30 s. */
  reportEveryMs?: number;
  /** What is counted: `spans`, `scores`, ... */
  unit: string;
  /** Healthy time before "recovered" is said; default 5 s. */
  quietMs?: number;
}

export class OutageLog {
  private readonly reportEveryMs: number;
  private readonly unit: string;
  private readonly quietMs: number;

  private since: number | undefined;
  /** When the server last answered well with nothing left to retry, while the outage is still open. */
  private healthySince: number | undefined;
  private lastReportAt = 0;
  private lastReason = '';
  private dropped = 0;
  private droppedSaid = 0;
  private deliveredLate = 0;
  /** Times the server came back and failed again within one outage. */
  private flaps = 0;
  private quietTimer: ReturnType<typeof setTimeout> | undefined;

  /** Losses outside an outage, by the kind of reason: when it was last said, and what is not said yet. */
  private readonly losses = new Map<string, { saidAt: number; unsaid: number; why: string }>();
  private lossTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly target: string,
    private readonly counts: OutageCounts,
    options: OutageLogOptions,
  ) {
    this.reportEveryMs = options.reportEveryMs ?? OUTAGE_REPORT_EVERY_MS;
    this.unit = options.unit;
    this.quietMs = options.quietMs ?? RECOVERY_QUIET_MS;
  }

  /** Whether an outage is going on (first failure seen, recovery not said yet). */
  get active(): boolean {
    return this.since !== undefined;
  }

  /** The last failure of the outage going on, if one is. */
  get reason(): string | undefined {
    return this.since !== undefined ? this.lastReason : undefined;
  }

  /** A send failed and will be retried; `reason` names the status or error (`HTTP 503`, `ECONNREFUSED`). */
  failed(reason: string, budgetMs: number): void {
    const now = Date.now();
    this.lastReason = reason;
    if (this.since === undefined) {
      this.since = now;
      this.lastReportAt = now;
      this.dropped = 0;
      this.droppedSaid = 0;
      this.deliveredLate = 0;
      this.flaps = 0;
      this.healthySince = undefined;
      // A warning: nothing is lost yet. Losses are errors.
      logger.warn(
        `export to ${this.target} is failing (${reason}); ${this.unit} are buffered and retried for up to ${Math.round(budgetMs / 1000)} s`,
      );
      return;
    }
    if (this.healthySince !== undefined) {
      // Back and down again: the same outage goes on, counted, not said.
      this.flaps++;
      this.healthySince = undefined;
      this.clearQuietTimer();
    }
    this.reportIfDue(now);
  }

  /** Items were lost for good (`why` says how). */
  lost(count: number, why: string): void {
    if (count <= 0) return;
    if (this.since !== undefined) {
      const first = this.dropped === 0;
      this.dropped += count;
      // The first loss of an outage is said at once; later ones go into its periodic reports.
      if (first) {
        this.droppedSaid = this.dropped;
        logger.error(`dropped ${count} ${this.unit}: ${why}; further losses of this outage are counted in its reports`);
      } else this.reportIfDue(Date.now());
      return;
    }
    // A reason said less than an interval ago is summed, not repeated: a server refusing every
    // batch (HTTP 400, a bad certificate) writes a line per interval, not one per batch.
    const now = Date.now();
    const key = why.replace(/\s*[(:].*$/s, '');
    const seen = this.losses.get(key);
    if (seen === undefined || (now - seen.saidAt >= this.reportEveryMs && seen.unsaid === 0)) {
      if (seen === undefined && this.losses.size >= 32) this.sayUnsaidLosses();
      this.losses.set(key, { saidAt: now, unsaid: 0, why });
      logger.error(`dropped ${count} ${this.unit}: ${why}`);
      return;
    }
    seen.unsaid += count;
    seen.why = why;
    this.lossTimer ??= unref(setTimeout(() => this.sayUnsaidLosses(), Math.max(0, seen.saidAt + this.reportEveryMs - now)));
  }

  /** Items reached the server; `idle` says nothing is left to retry, which may end an outage. */
  delivered(count: number, idle: boolean): void {
    if (this.since === undefined) return;
    this.deliveredLate += count;
    if (!idle || this.healthySince !== undefined) return;
    this.healthySince = Date.now();
    this.quietTimer = unref(setTimeout(() => this.recovered(), this.quietMs));
  }

  /**
   * A drain ended: a recovery waiting for its quiet time is said now (the caller's wait ends with
   * the whole story). When the drain is the last one (shutdown, exit), losses not said yet are
   * said too; after a flush they wait for the outage's next line.
   */
  settle(final: boolean): void {
    if (this.healthySince !== undefined) this.recovered();
    if (!final) return;
    if (this.since !== undefined && this.dropped > this.droppedSaid) this.report(Date.now());
    this.sayUnsaidLosses();
  }

  private recovered(): void {
    if (this.since === undefined || this.healthySince === undefined) return;
    this.clearQuietTimer();
    const seconds = ((this.healthySince - this.since) / 1000).toFixed(1);
    const lost = this.dropped > 0 ? `${this.dropped} ${this.unit} lost` : 'none lost';
    const flaps = this.flaps > 0 ? ` (it came back and failed again ${this.flaps} times)` : '';
    (this.dropped > 0 ? logger.error : logger.warn)(
      `export to ${this.target} recovered after ${seconds} s${flaps}: ${this.deliveredLate} ${this.unit} delivered late, ${lost}`,
    );
    this.since = undefined;
    this.healthySince = undefined;
  }

  private reportIfDue(now: number): void {
    if (this.since === undefined || now - this.lastReportAt < this.reportEveryMs) return;
    this.report(now);
  }

  private report(now: number): void {
    if (this.since === undefined) return;
    this.lastReportAt = now;
    this.droppedSaid = this.dropped;
    const seconds = Math.round((now - this.since) / 1000);
    const flaps = this.flaps > 0 ? `; it came back and failed again ${this.flaps} times` : '';
    (this.dropped > 0 ? logger.error : logger.warn)(
      `export to ${this.target} still failing after ${seconds} s (${this.lastReason}): ${this.counts.buffered()} ${this.unit} buffered, ${this.dropped} dropped${flaps}`,
    );
  }

  private sayUnsaidLosses(): void {
    if (this.lossTimer !== undefined) clearTimeout(this.lossTimer);
    this.lossTimer = undefined;
    const now = Date.now();
    for (const [key, loss] of this.losses) {
      if (loss.unsaid > 0) {
        logger.error(`dropped ${loss.unsaid} more ${this.unit}: ${loss.why}`);
        loss.unsaid = 0;
        loss.saidAt = now;
      } else if (now - loss.saidAt >= this.reportEveryMs) this.losses.delete(key);
    }
  }

  private clearQuietTimer(): void {
    if (this.quietTimer !== undefined) clearTimeout(this.quietTimer);
    this.quietTimer = undefined;
  }
}

/** A timer that never keeps the process alive (Node); elsewhere there is nothing to unref. */
function unref<T>(timer: T): T {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

/**
 * What a sender says about failures, in a bounded number of lines: one when an outage starts
 * (with the reason), at most one per `reportEveryMs` while it lasts (buffered and dropped counts,
 * and how often it came back and failed again), and one once it has recovered, said only after
 * the server stayed healthy for `RECOVERY_QUIET_MS` (a collector flapping every 500 ms is one
 * outage, not a pair of lines per flap). A loss outside an outage is said at once, and losses of
 * the same kind within `reportEveryMs` after it are summed into one later line. Whatever is held
 * back is said by `settle()`, when a flush or shutdown ends, or by its one timer, so nothing is
 * lost silently.
 */
import { logger } from '../util/logger.js';
import { unref } from '../util/unref.js';

/** Default interval between "still failing" lines. */
export const OUTAGE_REPORT_EVERY_MS = 30_000;

/** How long the server must stay healthy before an outage is said to be over. */
export const RECOVERY_QUIET_MS = 5_000;

export interface OutageLogOptions {
  /** Where the sender sends, for the lines (no credentials). */
  target: string;
  /** What is counted: `spans`, `scores`, ... */
  unit: string;
  /** Items accepted and not answered yet: waiting, buffered for retry, or in flight. */
  buffered(): number;
  /** Between "still failing" lines, and between lines of losses outside an outage; default 30 s. */
  reportEveryMs?: number;
}

/** One outage, from its first failure until its recovery is said. */
interface Outage {
  since: number;
  /** When the server last answered well with nothing left to retry. */
  healthySince?: number;
  lastReportAt: number;
  reason: string;
  dropped: number;
  droppedSaid: number;
  deliveredLate: number;
  /** Times the server came back and failed again. */
  flaps: number;
}

export class OutageLog {
  private outage: Outage | undefined;
  /** Losses outside an outage, by the kind of reason: when it was last said, and what is not said yet. */
  private readonly losses = new Map<string, { saidAt: number; unsaid: number; why: string }>();
  /** Ends the quiet time of a recovery, or the interval of losses not said yet: whichever comes first. */
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly o: OutageLogOptions) {}

  private get every(): number {
    return this.o.reportEveryMs ?? OUTAGE_REPORT_EVERY_MS;
  }

  /** Whether an outage is going on (first failure seen, recovery not said yet). */
  get active(): boolean {
    return this.outage !== undefined;
  }

  /** The last failure of the outage going on, if one is. */
  get reason(): string | undefined {
    return this.outage?.reason;
  }

  /** A send failed and will be retried; `reason` names the status or error (`HTTP 503`, `ECONNREFUSED`). */
  failed(reason: string, budgetMs: number): void {
    const now = Date.now();
    const outage = this.outage;
    if (outage === undefined) {
      this.outage = { since: now, lastReportAt: now, reason, dropped: 0, droppedSaid: 0, deliveredLate: 0, flaps: 0 };
      // A warning: nothing is lost yet. Losses are errors.
      logger.warn(
        `export to ${this.o.target} is failing (${reason}); ${this.o.unit} are buffered and retried for up to ${Math.round(budgetMs / 1000)} s`,
      );
      return;
    }
    outage.reason = reason;
    if (outage.healthySince !== undefined) {
      // Back and down again: the same outage goes on, counted, not said.
      outage.flaps++;
      outage.healthySince = undefined;
      this.arm();
    }
    this.reportIfDue(now);
  }

  /** Items were lost for good (`why` says how). */
  lost(count: number, why: string): void {
    if (count <= 0) return;
    const outage = this.outage;
    if (outage !== undefined) {
      const first = outage.dropped === 0;
      outage.dropped += count;
      // The first loss of an outage is said at once; later ones go into its periodic reports.
      if (first) {
        outage.droppedSaid = outage.dropped;
        logger.error(`dropped ${count} ${this.o.unit}: ${why}; further losses of this outage are counted in its reports`);
      } else this.reportIfDue(Date.now());
      return;
    }
    // A reason said less than an interval ago is summed, not repeated: a server refusing every
    // batch (HTTP 400, a bad certificate) writes a line per interval, not one per batch.
    const now = Date.now();
    const key = why.replace(/\s*[(:].*$/s, '');
    const seen = this.losses.get(key);
    if (seen === undefined || (now - seen.saidAt >= this.every && seen.unsaid === 0)) {
      if (seen === undefined && this.losses.size >= 32) this.sayUnsaidLosses();
      this.losses.set(key, { saidAt: now, unsaid: 0, why });
      logger.error(`dropped ${count} ${this.o.unit}: ${why}`);
      return;
    }
    seen.unsaid += count;
    seen.why = why;
    this.arm();
  }

  /** Items reached the server; `idle` says nothing is left to retry, which may end an outage. */
  delivered(count: number, idle: boolean): void {
    const outage = this.outage;
    if (outage === undefined) return;
    outage.deliveredLate += count;
    if (!idle || outage.healthySince !== undefined) return;
    outage.healthySince = Date.now();
    this.arm();
  }

  /**
   * A drain ended: a recovery waiting for its quiet time is said now (the caller's wait ends with
   * the whole story). When the drain is the last one (shutdown, exit), losses not said yet are
   * said too; after a flush they wait for the outage's next line.
   */
  settle(final: boolean): void {
    if (this.outage?.healthySince !== undefined) this.recovered();
    if (!final) return;
    if (this.outage !== undefined && this.outage.dropped > this.outage.droppedSaid) this.report(this.outage, Date.now());
    this.sayUnsaidLosses();
  }

  /** Sets the timer for the next line owed: a recovery's quiet time, or the first interval of unsaid losses to end. */
  private arm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    let at = this.outage?.healthySince !== undefined ? this.outage.healthySince + RECOVERY_QUIET_MS : Number.POSITIVE_INFINITY;
    for (const loss of this.losses.values()) if (loss.unsaid > 0) at = Math.min(at, loss.saidAt + this.every);
    if (at === Number.POSITIVE_INFINITY) return;
    this.timer = unref(
      setTimeout(
        () => {
          this.timer = undefined;
          const now = Date.now();
          const healthy = this.outage?.healthySince;
          if (healthy !== undefined && now - healthy >= RECOVERY_QUIET_MS) this.recovered();
          if ([...this.losses.values()].some((l) => l.unsaid > 0 && now - l.saidAt >= this.every)) this.sayUnsaidLosses();
          this.arm();
        },
        Math.max(0, at - Date.now()),
      ),
    );
  }

  private recovered(): void {
    const outage = this.outage;
    if (outage?.healthySince === undefined) return;
    const { unit } = this.o;
    const seconds = ((outage.healthySince - outage.since) / 1000).toFixed(1);
    const lost = outage.dropped > 0 ? `${outage.dropped} ${unit} lost` : 'none lost';
    const flaps = outage.flaps > 0 ? ` (it came back and failed again ${outage.flaps} times)` : '';
    (outage.dropped > 0 ? logger.error : logger.warn)(
      `export to ${this.o.target} recovered after ${seconds} s${flaps}: ${outage.deliveredLate} ${unit} delivered late, ${lost}`,
    );
    this.outage = undefined;
    this.arm();
  }

  private reportIfDue(now: number): void {
    if (this.outage === undefined || now - this.outage.lastReportAt < this.every) return;
    this.report(this.outage, now);
  }

  private report(outage: Outage, now: number): void {
    outage.lastReportAt = now;
    outage.droppedSaid = outage.dropped;
    const seconds = Math.round((now - outage.since) / 1000);
    const flaps = outage.flaps > 0 ? `; it came back and failed again ${outage.flaps} times` : '';
    (outage.dropped > 0 ? logger.error : logger.warn)(
      `export to ${this.o.target} still failing after ${seconds} s (${outage.reason}): ${this.o.buffered()} ${this.o.unit} buffered, ${outage.dropped} dropped${flaps}`,
    );
  }

  private sayUnsaidLosses(): void {
    const now = Date.now();
    for (const [key, loss] of this.losses) {
      if (loss.unsaid > 0) {
        logger.error(`dropped ${loss.unsaid} more ${this.o.unit}: ${loss.why}`);
        loss.unsaid = 0;
        loss.saidAt = now;
      } else if (now - loss.saidAt >= this.every) this.losses.delete(key);
    }
    this.arm();
  }
}

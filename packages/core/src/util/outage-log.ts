/**
 * One log line per export outage instead of one per batch: when it starts (with the reason),
 * at most every `reportEveryMs` while it lasts (with counts), and when it ends.
 */
import { logger } from './logger.js';

/** Counts an outage report needs from the delivery queue. */
export interface OutageCounts {
  /** Spans waiting to be (re)sent now. */
  buffered(): number;
}

/** Default interval between "still failing" lines. */
export const OUTAGE_REPORT_EVERY_MS = 30_000;

export class OutageLog {
  private since: number | undefined;
  private lastReportAt = 0;
  private lastReason = '';
  private dropped = 0;
  private deliveredLate = 0;

  constructor(
    private readonly target: string,
    private readonly counts: OutageCounts,
    private readonly reportEveryMs = OUTAGE_REPORT_EVERY_MS,
    /** What is counted: `spans` or `scores`. */
    private readonly unit = 'spans',
  ) {}

  /** Whether an outage is going on (first failure seen, not yet recovered). */
  get active(): boolean {
    return this.since !== undefined;
  }

  /** A send failed; `reason` names the status or error (`HTTP 503`, `ECONNREFUSED`, `timeout`). */
  failed(reason: string, budgetMs: number): void {
    const now = Date.now();
    this.lastReason = reason;
    if (this.since === undefined) {
      this.since = now;
      this.lastReportAt = now;
      this.dropped = 0;
      this.deliveredLate = 0;
      // A warning: nothing is lost yet. Losses are errors.
      logger.warn(
        `export to ${this.target} is failing (${reason}); ${this.unit} are buffered and retried for up to ${Math.round(budgetMs / 1000)} s`,
      );
      return;
    }
    this.reportIfDue(now);
  }

  /** Spans were lost for good (`why` is used when no outage is going on). */
  lost(count: number, why: string): void {
    if (count <= 0) return;
    if (this.since !== undefined) {
      const first = this.dropped === 0;
      this.dropped += count;
      // The first loss of an outage is said at once; later ones go into its periodic reports.
      if (first) logger.error(`dropped ${count} ${this.unit}: ${why}; further losses of this outage are counted in its reports`);
      else this.reportIfDue(Date.now());
      return;
    }
    logger.error(`dropped ${count} ${this.unit}: ${why}`);
  }

  /** Spans reached the server; `idle` says the buffer has drained, which ends an outage. */
  delivered(count: number, idle: boolean): void {
    if (this.since === undefined) return;
    this.deliveredLate += count;
    if (!idle) return;
    const seconds = ((Date.now() - this.since) / 1000).toFixed(1);
    const lost = this.dropped > 0 ? `${this.dropped} ${this.unit} lost` : 'none lost';
    (this.dropped > 0 ? logger.error : logger.warn)(
      `export to ${this.target} recovered after ${seconds} s: ${this.deliveredLate} ${this.unit} delivered late, ${lost}`,
    );
    this.since = undefined;
  }

  private reportIfDue(now: number): void {
    if (this.since === undefined || now - this.lastReportAt < this.reportEveryMs) return;
    this.lastReportAt = now;
    const seconds = Math.round((now - this.since) / 1000);
    (this.dropped > 0 ? logger.error : logger.warn)(
      `export to ${this.target} still failing after ${seconds} s (${this.lastReason}): ${this.counts.buffered()} ${this.unit} buffered, ${this.dropped} dropped`,
    );
  }
}

/**
 * Retention: whole traces go, oldest first, when they are older than the policy's age or while
 * the data file holds more than its size (down to 90% of it, so a pass is not needed again at
 * the next span). Each pass that deletes something says so in one line; when the deletions left
 * a quarter of the file or more free, the pass also vacuums it (SQLite reuses free pages for new
 * data anyway, so in the steady state of a size limit the file stops growing and no vacuum is
 * needed). Passes run at start, every minute, and soon after spans arrive while a size limit
 * applies; deletions go in batches with the event loop let through between them.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { ObsStores } from '../stores/types.js';
import type { RetentionPolicy } from './policy.js';

/** Traces deleted per transaction. */
const BATCH = 500;
/** What a size limit prunes down to, of the limit. */
const LOW_WATER = 0.9;
/** How often a pass runs anyway. */
const EVERY_MS = 60_000;
/** How soon after the last pass arriving spans may start another (with a size limit). */
const AFTER_SPANS_MS = 10_000;

/** What one pass did. */
export interface PruneResult {
  traces: number;
  spans: number;
  /** The file's size before and after (and whether it was vacuumed), with a data file. */
  file?: { before: number; after: number; vacuumed: boolean };
}

/** Runs retention passes over a server's stores. */
export class Retention {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<PruneResult> | undefined;
  private last = 0;
  private stopped = false;

  constructor(
    private readonly stores: ObsStores,
    private readonly policy: RetentionPolicy,
    private readonly say: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the policy limits anything. */
  get active(): boolean {
    return this.policy.maxAgeMs !== undefined || this.policy.maxBytes !== undefined;
  }

  /** Runs a pass now, then one a minute (the timer keeps no process alive). */
  start(): void {
    if (!this.active) return;
    this.schedule(0);
  }

  /** Spans were stored: with a size limit, a pass soon unless one ran in the last ten seconds. */
  touched(): void {
    if (this.policy.maxBytes === undefined || this.stopped || this.running) return;
    const wait = this.last + AFTER_SPANS_MS - this.now();
    if (wait <= 0) this.schedule(0);
  }

  /** Stops the passes; resolves once a pass under way has let go of the stores. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One pass: what it deleted (nothing when the policy keeps everything). */
  pass(): Promise<PruneResult> {
    this.running ??= this.prune().finally(() => {
      this.running = undefined;
      this.last = this.now();
    });
    return this.running;
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.pass()
        .catch((err: unknown) => this.say(`retention: a pass failed: ${(err as Error)?.message ?? String(err)}`))
        .finally(() => this.schedule(EVERY_MS));
    }, ms);
    this.timer.unref();
  }

  private async prune(): Promise<PruneResult> {
    const { stores, policy } = this;
    const storage = stores.storage;
    const result: PruneResult = { traces: 0, spans: 0 };
    const before = storage?.fileBytes();
    const reasons: string[] = [];
    const remove = async (ids: string[]) => {
      result.spans += stores.deleteTraces(ids);
      result.traces += ids.length;
      await yieldToEventLoop();
    };

    if (policy.maxAgeMs !== undefined) {
      const cutoff = this.now() - policy.maxAgeMs;
      const from = result.traces;
      for (let ids = stores.traces.oldest(BATCH, cutoff); ids.length > 0 && !this.stopped; ids = stores.traces.oldest(BATCH, cutoff)) {
        await remove(ids);
      }
      if (result.traces > from) reasons.push(`started before ${new Date(cutoff).toISOString()} (--retain ${days(policy.maxAgeMs)})`);
    }
    if (policy.maxBytes !== undefined && storage && storage.usedBytes() > policy.maxBytes) {
      const target = policy.maxBytes * LOW_WATER;
      const from = result.traces;
      for (let used = storage.usedBytes(); used > target && !this.stopped; used = storage.usedBytes()) {
        // As many traces as should free what is over, at the average trace's size (at most a batch).
        const traces = stores.traces.list({}, 0).total;
        const perTrace = used / Math.max(traces, 1);
        const ids = stores.traces.oldest(Math.min(BATCH, Math.max(1, Math.ceil((used - target) / perTrace))));
        if (ids.length === 0) break;
        await remove(ids);
      }
      if (result.traces > from) reasons.push(`the oldest, to keep the data under ${mb(policy.maxBytes)} (--max-size)`);
    }
    if (this.stopped) return result; // the server is closing: the stores may be gone
    if (result.traces === 0 || !storage || before === undefined) {
      if (result.traces > 0)
        this.say(`retention: deleted ${count(result.traces, 'trace')} (${count(result.spans, 'span')}): ${reasons.join('; ')}`);
      return result;
    }
    const free = storage.fileBytes() - storage.usedBytes();
    const vacuumed = free >= storage.fileBytes() / 4;
    const started = this.now();
    if (vacuumed) storage.vacuum();
    const after = storage.fileBytes();
    result.file = { before, after, vacuumed };
    const file = vacuumed
      ? `vacuumed the file from ${mb(before)} to ${mb(after)} in ${((this.now() - started) / 1000).toFixed(1)} s`
      : `the data takes ${mb(storage.usedBytes())} of a ${mb(after)} file, its free pages reused`;
    this.say(`retention: deleted ${count(result.traces, 'trace')} (${count(result.spans, 'span')}): ${reasons.join('; ')}; ${file}`);
    return result;
  }
}

const count = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
const days = (ms: number) => {
  const n = ms / 86_400_000;
  return `${Number(n.toFixed(3))} day${n === 1 ? '' : 's'}`;
};

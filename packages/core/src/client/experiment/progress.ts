/** Progress of a run: one updating line on a terminal, a few plain lines otherwise, and the `onProgress` callback. */
import { logger } from '../../util/logger.js';
import { describeError } from '../util/describe.js';
import type { ExperimentProgress } from './types.js';

/** Where progress lines go (stderr by default; tests pass their own). */
export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

function stderr(): ProgressStream | undefined {
  return (globalThis as { process?: { stderr?: ProgressStream } }).process?.stderr;
}

/** Runs of at least this many items show progress unless `showProgress: false`. */
export const LONG_RUN_ITEMS = 10;

/** Reports progress after each finished item; never throws into the run. */
export class ProgressReporter {
  private completed = 0;
  private failed = 0;
  private readonly stream: ProgressStream | undefined;
  private readonly tty: boolean;
  /** Plain lines every 10% (at least every item of a short run), so a CI log stays short. */
  private readonly every: number;

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly onProgress: ((p: ExperimentProgress) => void) | undefined,
    show: boolean | undefined,
    stream: ProgressStream | undefined = stderr(),
  ) {
    this.tty = stream?.isTTY === true;
    this.stream = (show ?? total >= LONG_RUN_ITEMS) && total > 0 ? stream : undefined;
    this.every = Math.max(1, Math.ceil(total / 10));
  }

  /** One item finished (`ok: false` when its task failed). */
  itemDone(ok: boolean): void {
    this.completed++;
    if (!ok) this.failed++;
    const progress: ExperimentProgress = { completed: this.completed, failed: this.failed, total: this.total };
    if (this.onProgress) {
      try {
        this.onProgress(progress);
      } catch (err) {
        logger.warnOnce('experiment-on-progress', `experiment onProgress threw (ignored): ${describeError(err)}`);
      }
    }
    if (!this.stream) return;
    const line = `${this.label}: ${this.completed}/${this.total} items${this.failed ? `, ${this.failed} failed` : ''}`;
    try {
      if (this.tty) this.stream.write(`\r\x1b[2K${line}${this.completed === this.total ? '\n' : ''}`);
      else if (this.completed % this.every === 0 || this.completed === this.total) this.stream.write(`${line}\n`);
    } catch {
      // A closed stderr must not fail the run.
    }
  }
}

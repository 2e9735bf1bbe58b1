/**
 * One `describeEval` suite, whatever runs its tests: the items read while tests are collected,
 * one experiment run in obs started by the first item (`startExperimentRun` from `@obs/core/kit`:
 * core's runner and evaluators, item by item), each item run with its model calls recorded or
 * replayed, and at the end the run evaluators, the means, the previous run's means and the
 * thresholds. The vitest and `node:test` doors map it onto their runner's tests.
 */
import { type ExperimentItemResult, getObsHandle, type ObsClient } from '@obs/core';
import { type ExperimentRun, startExperimentRun } from '@obs/core/kit';
import { ensureDispatcherWrapped } from './cache/dispatcher.js';
import { type EvalCacheMode, evalCacheMode } from './cache/mode.js';
import { type CacheCounts, type CacheScope, cassetteFor, inCacheScope } from './cache/scope.js';
import { itemNames, loadData, type SuiteData } from './data.js';
import { previousRun, recordRun } from './history.js';
import { evalObsClient, notConfiguredReason } from './obs.js';
import { round, scoreMeans, thresholdFailures, thresholdRanges } from './scores.js';
import type { EvalItem, EvalOptions, ThresholdRange } from './types.js';

/** Each item's time limit unless `timeout` says otherwise: a model call outlasts vitest's 5 s default. */
export const DEFAULT_ITEM_TIMEOUT_MS = 60_000;

/** A suite's tests, as a runner door builds them. */
export interface SuitePlan {
  /** One test name per item, in order. */
  names: string[];
  /** Items run at once. */
  concurrency: number;
  /** The runner's time limit for one item's test: its own limit plus the wait for a free slot. */
  testTimeout: number;
}

export class EvalSuite<Item extends EvalItem = EvalItem> {
  private readonly ranges: Map<string, ThresholdRange>;
  private readonly mode: EvalCacheMode;
  private readonly concurrency: number;
  private readonly itemTimeout: number;
  private readonly slots: Semaphore;
  private readonly results = new Map<number, ExperimentItemResult<Item>>();
  private readonly counts: CacheCounts = { replayed: 0, recorded: 0, missed: 0 };
  private data: SuiteData<Item> | undefined;
  private names: string[] = [];
  private run: Promise<ExperimentRun<Item>> | undefined;
  private client: ObsClient | undefined | null = null;
  private finished = false;

  constructor(
    readonly name: string,
    private readonly options: EvalOptions<Item>,
  ) {
    const where = `describeEval "${name}"`;
    if (typeof name !== 'string' || name.trim() === '') throw new TypeError('describeEval: the suite needs a non-empty name');
    if (typeof options !== 'object' || options === null) throw new TypeError(`${where}: options ({ data, task, evaluators }) are required`);
    if (typeof options.task !== 'function') throw new TypeError(`${where}: task must be a function ({ input, item }) => output`);
    for (const key of ['evaluators', 'runEvaluators'] as const) {
      const list = options[key];
      if (list !== undefined && !(Array.isArray(list) && list.every((f) => typeof f === 'function'))) {
        throw new TypeError(`${where}: ${key} must be an array of functions`);
      }
    }
    this.concurrency = positiveInteger(where, 'concurrency', options.concurrency, 1);
    this.itemTimeout = positiveInteger(where, 'timeout', options.timeout, DEFAULT_ITEM_TIMEOUT_MS);
    this.ranges = thresholdRanges(name, options.thresholds);
    this.mode = evalCacheMode();
    this.slots = new Semaphore(this.concurrency);
    if (this.mode !== 'off') ensureDispatcherWrapped();
  }

  /** Reads the items (while the runner collects tests): a dataset's from obs. */
  async plan(): Promise<SuitePlan> {
    this.data = await loadData(this.name, this.options.data, () => this.obs());
    const waves = Math.ceil(this.data.items.length / this.concurrency) || 1;
    this.names = itemNames(this.data.items);
    return { names: this.names, concurrency: this.concurrency, testTimeout: this.itemTimeout * waves + 10_000 };
  }

  /**
   * Runs item `index` as part of the run (its trace, evaluators and scores). Rejects when its task
   * threw (with that error), when a replayed call was not recorded (naming it), or past its time
   * limit.
   */
  async runItem(index: number, testFile: string): Promise<void> {
    const item = this.items()[index]!;
    await this.slots.acquire();
    const scope = this.scope(testFile);
    try {
      const run = await this.started();
      const work = () => run.runItem(item, index);
      const result = await withTimeout(
        scope ? inCacheScope(scope, work) : work(),
        this.itemTimeout,
        `item "${this.names[index]}" of ${this.name}`,
      );
      this.results.set(index, result);
      if (scope && scope.misses.length > 0) throw new Error(scope.misses.join('\n'), { cause: result.error });
      if (result.error !== undefined) throw result.error;
    } finally {
      this.slots.release();
      scope?.cassette.save();
    }
  }

  /**
   * Ends the run once its items ran: run evaluators, every span and score flushed, this run's
   * means recorded for the next, thresholds checked. Resolves with the summary line; rejects with
   * one line naming each score outside its threshold (its mean, the threshold, the previous mean).
   */
  async finish(testFile: string): Promise<string> {
    const where = `describeEval "${this.name}"`;
    if (this.results.size === 0) return `${where}: no item ran`;
    const run = await this.started();
    this.finished = true;
    const itemResults = [...this.results].sort(([a], [b]) => a - b).map(([, r]) => r);
    const scope = this.scope(testFile);
    const result = scope ? await inCacheScope(scope, () => run.finish(itemResults)) : await run.finish(itemResults);
    scope?.cassette.save();
    const means = scoreMeans(itemResults, result.runEvaluations);
    const previous = previousRun(testFile, this.name);
    // Only a complete run is a baseline (`-t` may have run a few items).
    if (itemResults.length === this.items().length) recordRun(testFile, this.name, itemResults.length, means);
    const failures = thresholdFailures(this.ranges, means, previous?.means);
    if (failures.length > 0) throw new ThresholdError(`${where}: ${failures.join('; ')}`);
    return this.summary(itemResults.length, means, previous?.means, result.experimentUrl);
  }

  /**
   * After the suite: when `scores` did not run (`-t` picked some items), what the items sent is
   * still delivered before the test process ends.
   */
  async close(): Promise<void> {
    if (this.finished || this.results.size === 0 || !this.client) return;
    await getObsHandle()?.flush();
  }

  private summary(
    items: number,
    means: ReturnType<typeof scoreMeans>,
    previous: Record<string, number> | undefined,
    url: string | undefined,
  ): string {
    const scores = Object.entries(means).map(([name, { mean }]) => {
      const before = previous?.[name];
      return `${name} ${round(mean)}${before !== undefined && round(before) !== round(mean) ? ` (previous ${round(before)})` : ''}`;
    });
    const calls =
      this.mode === 'off'
        ? ''
        : `, calls ${[
            `${this.counts.replayed} replayed`,
            `${this.counts.recorded} recorded`,
            this.counts.missed ? `${this.counts.missed} not recorded` : '',
          ]
            .filter(Boolean)
            .join(', ')} (OBS_EVAL_CACHE=${this.mode})`;
    const where = url ?? notConfiguredReason() ?? '';
    return `describeEval "${this.name}": ${items} item${items === 1 ? '' : 's'}${calls}; ${scores.join(', ') || 'no numeric scores'}${where ? `; ${where}` : ''}`;
  }

  private items(): Item[] {
    if (!this.data) throw new Error(`describeEval "${this.name}": items run before they were read`);
    return this.data.items;
  }

  private obs(): ObsClient | undefined {
    if (this.client === null) this.client = evalObsClient();
    return this.client;
  }

  private scope(testFile: string): CacheScope | undefined {
    if (this.mode === 'off') return undefined;
    // Something may have replaced the global dispatcher since the import (a test's own undici set-up).
    ensureDispatcherWrapped();
    return { mode: this.mode, cassette: cassetteFor(testFile), misses: [], counts: this.counts };
  }

  private started(): Promise<ExperimentRun<Item>> {
    this.run ??= (async () => {
      const { options } = this;
      const dataset = this.data?.dataset;
      return startExperimentRun(
        this.obs(),
        {
          name: this.name,
          ...(options.runName !== undefined ? { runName: options.runName } : {}),
          ...(options.description !== undefined ? { description: options.description } : {}),
          ...(options.metadata !== undefined ? { metadata: options.metadata } : {}),
          task: (item: Item) => options.task({ input: item.input, item }),
          evaluators: options.evaluators ?? [],
          runEvaluators: options.runEvaluators ?? [],
        },
        dataset ? { id: dataset.id, ...(dataset.version !== undefined ? { version: dataset.version } : {}) } : undefined,
      );
    })();
    return this.run;
  }
}

/** A threshold breach: the message is the whole story (one line), no stack needed. */
export class ThresholdError extends Error {
  override name = 'ThresholdError';

  constructor(message: string) {
    super(message);
    // The runner prints the stack: here that is the line itself, not where the check ran.
    this.stack = `${this.name}: ${message}`;
  }
}

function positiveInteger(where: string, key: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return value;
  throw new TypeError(`${where}: ${key} must be an integer >= 1, got ${String(value)}`);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms (the timeout option)`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** At most `size` holders at once; the rest wait in order. */
class Semaphore {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = size;
  }

  acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

/** The options of `describeEval`, shared by the vitest and `node:test` doors. */
import type { Evaluator, ExperimentDataItem, RunEvaluator } from '@obs/core';

/** One item of local data: what the task gets. An `id` names its test (else its input does). */
export interface EvalItem<Input = unknown, Expected = unknown, Metadata = unknown> extends ExperimentDataItem<Input, Expected, Metadata> {
  id?: string;
}

/** The items of an obs dataset (at a version, when given): the suite is then a dataset run. */
export interface DatasetRef {
  dataset: string;
  /** The dataset as it was at this time; default its current items. */
  version?: string | Date;
}

/** Where the items come from: a list, a function that returns one (called while vitest collects), or a dataset. */
export type EvalData<Item extends EvalItem = EvalItem> = Item[] | (() => Item[] | Promise<Item[]>) | DatasetRef;

/** The task under test: gets the item's input (and the whole item), returns its output. Whatever it traces nests under the item. */
export type EvalTask<Item extends EvalItem = EvalItem> = (args: { input: Item['input']; item: Item }) => unknown;

/** The bounds of a score's mean over the run: `{ min }`, `{ max }` or both. */
export interface ThresholdRange {
  min?: number;
  max?: number;
}

/** Per score name: its minimum mean (a number), or `{ min, max }`. */
export type Thresholds = Record<string, number | ThresholdRange>;

/** What `describeEval` takes. */
export interface EvalOptions<Item extends EvalItem = EvalItem> {
  data: EvalData<Item>;
  task: EvalTask<Item>;
  /** `@obs/core`'s experiment evaluators, as they are: each one's evaluations become scores on the item's trace. */
  evaluators?: Evaluator<Item>[];
  /** `@obs/core`'s run evaluators: their evaluations become scores of the run. */
  runEvaluators?: RunEvaluator<Item>[];
  /**
   * Minimum (or `{ min, max }`) means per score name, over the items' evaluations (a run
   * evaluation of that name counts as its own mean). A mean outside fails the suite with one line.
   */
  thresholds?: Thresholds;
  /** Items run at once (vitest's `.concurrent`, capped by its `maxConcurrency`, default 5); default 1. */
  concurrency?: number;
  /** The experiment's metadata in obs. */
  metadata?: Record<string, unknown>;
  /** The experiment's description in obs. */
  description?: string;
  /** The run's name in obs; default `<suite name> - <ISO time>`. */
  runName?: string;
  /** Each item's time limit in ms (a model call is slower than vitest's 5 s default allows); default 60,000. */
  timeout?: number;
}

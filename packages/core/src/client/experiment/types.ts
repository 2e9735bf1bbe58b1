/** Public shapes of the experiment runner (`client.experiment.run`, `dataset.runExperiment`). */
import type { ScoreDataType } from '../api/types.js';

/** One item of local data: what the task gets. Dataset items have this shape too, plus `id`. */
export interface ExperimentDataItem<Input = unknown, Expected = unknown, Metadata = unknown> {
  input?: Input;
  expectedOutput?: Expected;
  metadata?: Metadata;
  [key: string]: unknown;
}

/** One result of an evaluator; it becomes a score (on the item's trace, or on the run). */
export interface Evaluation {
  name: string;
  value: number | string | boolean;
  comment?: string;
  metadata?: unknown;
  dataType?: ScoreDataType;
}

/** What an item evaluator is given. */
export interface EvaluatorParams<Item extends ExperimentDataItem = ExperimentDataItem> {
  input: Item['input'];
  output: unknown;
  expectedOutput: Item['expectedOutput'];
  metadata: Item['metadata'];
  /** The whole item, for evaluators that need more than the fields above. */
  item: Item;
}

/** Scores one item's output: one evaluation or several, sync or async. */
export type Evaluator<Item extends ExperimentDataItem = ExperimentDataItem> = (
  params: EvaluatorParams<Item>,
) => Evaluation | Evaluation[] | Promise<Evaluation | Evaluation[]>;

/** The task under test: gets one item, returns its output. Whatever it traces nests under the item. */
export type ExperimentTask<Item extends ExperimentDataItem = ExperimentDataItem> = (item: Item) => unknown;

/** What happened to one item. */
export interface ExperimentItemResult<Item extends ExperimentDataItem = ExperimentDataItem> {
  item: Item;
  /** The task's output; `undefined` when it failed. */
  output: unknown;
  /** Evaluations of the evaluators that succeeded (each was sent as a score). */
  evaluations: Evaluation[];
  /** Trace of the item's `experiment-item-run` root observation. */
  traceId: string;
  /** What the task threw, when it failed. */
  error?: unknown;
}

/** What a run evaluator is given: every item's result. */
export interface RunEvaluatorParams<Item extends ExperimentDataItem = ExperimentDataItem> {
  itemResults: ExperimentItemResult<Item>[];
}

/** Scores the whole run (e.g. an average); its results become scores with `datasetRunId`. */
export type RunEvaluator<Item extends ExperimentDataItem = ExperimentDataItem> = (
  params: RunEvaluatorParams<Item>,
) => Evaluation | Evaluation[] | Promise<Evaluation | Evaluation[]>;

/** Progress of a run, after each finished item. */
export interface ExperimentProgress {
  completed: number;
  failed: number;
  total: number;
}

/** Arguments of `dataset.runExperiment`. */
export interface RunExperimentParams<Item extends ExperimentDataItem = ExperimentDataItem> {
  /** Name of the experiment. Required. */
  name: string;
  /** Name of this run; default `<name> - <ISO time>`. */
  runName?: string;
  description?: string;
  metadata?: Record<string, unknown>;
  task: ExperimentTask<Item>;
  evaluators?: Evaluator<Item>[];
  runEvaluators?: RunEvaluator<Item>[];
  /** Items run at once; default 50. */
  maxConcurrency?: number;
  /** Called after each finished item (errors in it are logged and ignored). */
  onProgress?: (progress: ExperimentProgress) => void;
  /**
   * Progress on stderr: one updating line on a terminal, a plain line every 10% otherwise.
   * Default: on for runs of 10 items or more.
   */
  showProgress?: boolean;
  /** The dataset version the items were read at (`dataset.get(name, { version })` sets it). */
  datasetVersion?: string | Date;
}

/** Arguments of `client.experiment.run`: `runExperiment`'s, plus the items. */
export interface ExperimentParams<Item extends ExperimentDataItem = ExperimentDataItem> extends RunExperimentParams<Item> {
  /** The items to run the task over. */
  data: Item[];
}

/** What a run gives back once every span and score of it has been flushed. */
export interface ExperimentResult<Item extends ExperimentDataItem = ExperimentDataItem> {
  /** Id of the experiment (dataset run): deterministic for a dataset run, random for local data. */
  experimentId: string;
  runName: string;
  /** `{baseUrl}/project/{projectId}/experiments/{experimentId}`; `undefined` without a project id. */
  experimentUrl: string | undefined;
  itemResults: ExperimentItemResult<Item>[];
  /** Results of the run evaluators (each sent as a score with `datasetRunId`). */
  runEvaluations: Evaluation[];
  /** A readable summary: items, failures, per-evaluator averages, run evaluations and the URL. */
  format(options?: { includeItemResults?: boolean }): string;
}

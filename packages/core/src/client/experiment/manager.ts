/** `client.experiment`: runs a task over items with evaluators, recorded through span attributes and scores. */
import { mapWithConcurrency } from './concurrency.js';
import { deleteExperiment, type DeleteExperimentParams, type DeleteExperimentResult } from './delete.js';
import { ProgressReporter, type ProgressStream } from './progress.js';
import { type DatasetSource, type ExperimentHost, type ExperimentRun, startRun } from './run.js';
import type { ExperimentDataItem, ExperimentParams, ExperimentResult, RunExperimentParams } from './types.js';
import { DEFAULT_MAX_CONCURRENCY, experimentParamsProblem } from './validate-params.js';

export type { DatasetSource, ExperimentHost } from './run.js';

/**
 * `client.experiment`: `run` over local data, `delete` of an experiment's traces. Dataset runs
 * are `dataset.runExperiment(...)` on a dataset from `client.dataset.get`. The runner never
 * calls `POST /api/public/dataset-run-items`: experiments travel as span attributes.
 */
export class ExperimentManager {
  /** @internal tests send progress lines elsewhere. */
  progressStream: ProgressStream | undefined;

  constructor(private readonly host: ExperimentHost) {}

  /**
   * Runs `task` over `data` (at most `maxConcurrency` items at once, default 50), evaluates each
   * item, then the run, and resolves once every span and score of the run has been flushed.
   * Invalid arguments reject at once with a `TypeError`.
   */
  run<Item extends ExperimentDataItem>(params: ExperimentParams<Item>): Promise<ExperimentResult<Item>> {
    const problem = experimentParamsProblem(params, true);
    if (problem) return Promise.reject(new TypeError(`experiment.run: ${problem}`));
    return this.execute(params, params.data, undefined);
  }

  /**
   * Deletes an experiment: pages its items by cursor, collects their trace ids and deletes the
   * traces (with their observations and scores) in requests of at most 1,000 ids.
   */
  delete(params: DeleteExperimentParams): Promise<DeleteExperimentResult> {
    return deleteExperiment(this.host.api, params);
  }

  /** @internal `dataset.runExperiment`: the dataset's items, a deterministic experiment id. */
  runOnDataset<Item extends ExperimentDataItem>(
    params: RunExperimentParams<Item>,
    items: Item[],
    dataset: DatasetSource,
  ): Promise<ExperimentResult<Item>> {
    const problem = experimentParamsProblem(params, false);
    if (problem) return Promise.reject(new TypeError(`dataset.runExperiment: ${problem}`));
    return this.execute(params, items, dataset);
  }

  /**
   * @internal A run taken apart (`startExperimentRun` in `@obs/core/kit`): a test runner runs its
   * items one test each. Invalid arguments reject with a `TypeError`.
   */
  start<Item extends ExperimentDataItem>(params: RunExperimentParams<Item>, dataset?: DatasetSource): Promise<ExperimentRun<Item>> {
    const problem = experimentParamsProblem(params, false);
    if (problem) return Promise.reject(new TypeError(`startExperimentRun: ${problem}`));
    return startRun(this.host, params, dataset);
  }

  private async execute<Item extends ExperimentDataItem>(
    params: RunExperimentParams<Item>,
    data: Item[],
    dataset: DatasetSource | undefined,
  ): Promise<ExperimentResult<Item>> {
    const run = await startRun(this.host, params, dataset);
    const progress = new ProgressReporter(
      `experiment "${run.runName}"`,
      data.length,
      params.onProgress,
      params.showProgress,
      this.progressStream,
    );
    const itemResults = await mapWithConcurrency(data, params.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY, async (item, index) => {
      const result = await run.runItem(item, index);
      progress.itemDone(result.error === undefined);
      return result;
    });
    return run.finish(itemResults);
  }
}

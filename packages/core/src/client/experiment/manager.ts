/** `client.experiment`: runs a task over items with evaluators, recorded through span attributes and scores. */
import { logger } from '../../util/logger.js';
import { flushObsSpans } from '../../tracing/tracer.js';
import type { ObsApiClient } from '../api/client.js';
import type { ScoreManager } from '../scores/manager.js';
import { describeError } from '../util/describe.js';
import { mapWithConcurrency } from './concurrency.js';
import { deleteExperiment, type DeleteExperimentParams, type DeleteExperimentResult } from './delete.js';
import { evaluationList, evaluationScore, evaluatorName } from './evaluations.js';
import { datasetRunExperimentId, randomExperimentId } from './experiment-id.js';
import { formatExperiment } from './format.js';
import { ProgressReporter, type ProgressStream } from './progress.js';
import { runItem } from './run-item.js';
import type { Evaluation, ExperimentDataItem, ExperimentParams, ExperimentResult, RunExperimentParams } from './types.js';
import { DEFAULT_MAX_CONCURRENCY, experimentParamsProblem } from './validate-params.js';

/** What the runner needs from its client. */
export interface ExperimentHost {
  api: ObsApiClient;
  score: ScoreManager;
  getProjectId(): Promise<string | undefined>;
  getExperimentUrl(experimentId: string): Promise<string | undefined>;
}

/** The dataset a run reads its items from. */
export interface DatasetSource {
  id: string;
  version?: string;
}

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

  private async execute<Item extends ExperimentDataItem>(
    params: RunExperimentParams<Item>,
    data: Item[],
    dataset: DatasetSource | undefined,
  ): Promise<ExperimentResult<Item>> {
    const { name, description, metadata, task, onProgress, showProgress } = params;
    const runName = params.runName ?? `${name} - ${new Date().toISOString()}`;
    const experimentId = dataset
      ? await datasetRunExperimentId((await this.host.getProjectId()) ?? '', dataset.id, runName)
      : randomExperimentId();
    const version = params.datasetVersion ?? dataset?.version;
    const settings = {
      experimentId,
      runName,
      name,
      description,
      metadata,
      datasetId: dataset?.id,
      datasetVersion: version instanceof Date ? version.toISOString() : version,
      task,
      evaluators: params.evaluators ?? [],
      score: this.host.score,
    };
    const progress = new ProgressReporter(`experiment "${runName}"`, data.length, onProgress, showProgress, this.progressStream);
    const itemResults = await mapWithConcurrency(data, params.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY, async (item, index) => {
      const result = await runItem(settings, item, index);
      progress.itemDone(result.error === undefined);
      return result;
    });

    const runEvaluations: Evaluation[] = [];
    for (const [i, evaluator] of (params.runEvaluators ?? []).entries()) {
      const evaluatorLabel = evaluatorName(evaluator, i);
      try {
        for (const evaluation of evaluationList(await evaluator({ itemResults }), evaluatorLabel)) {
          runEvaluations.push(evaluation);
          this.host.score.create(evaluationScore(evaluation, { datasetRunId: experimentId }));
        }
      } catch (err) {
        logger.error(`experiment run evaluator "${evaluatorLabel}" failed: ${describeError(err)}; its scores are skipped`);
      }
    }

    // The URL must show a complete run: every span and score is on the server before we resolve.
    await flushObsSpans().catch((err: unknown) => logger.error(`experiment: flushing spans failed: ${describeError(err)}`));
    await this.host.score.flush();
    const experimentUrl = await this.host.getExperimentUrl(experimentId);
    const summary = { name, runName, experimentId, experimentUrl, itemResults, runEvaluations };
    return { experimentId, runName, experimentUrl, itemResults, runEvaluations, format: (options) => formatExperiment(summary, options) };
  }
}

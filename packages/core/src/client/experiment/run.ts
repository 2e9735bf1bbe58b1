/**
 * One experiment run taken apart: started once (its id and name), then item by item, then
 * finished (run evaluators, flush, URL). `client.experiment.run` and `dataset.runExperiment`
 * drive it over all items at once; a test runner (`@obs/vitest`) drives it one test per item, so
 * both record the same traces, attributes and scores with the same evaluators.
 */
import { logger } from '../../util/logger.js';
import { flushObsSpans } from '../../tracing/tracer.js';
import { describeError } from '../util/describe.js';
import { evaluationList, evaluationScore, evaluatorName } from './evaluations.js';
import { datasetRunExperimentId, randomExperimentId } from './experiment-id.js';
import { formatExperiment } from './format.js';
import type { ObsApiClient } from '../api/client.js';
import type { ScoreManager } from '../scores/manager.js';
import { type ItemRunSettings, runItem } from './run-item.js';
import type { Evaluation, ExperimentDataItem, ExperimentItemResult, ExperimentResult, RunExperimentParams } from './types.js';

/** What a run needs from its client. */
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

/** A started run: items are run one call each, in any order and at any concurrency, then `finish`. */
export interface ExperimentRun<Item extends ExperimentDataItem = ExperimentDataItem> {
  /** Deterministic for a dataset run (project, dataset, run name), random for local data. */
  readonly experimentId: string;
  readonly runName: string;
  /**
   * Runs one item: its `experiment-item-run` root with the task inside, then its evaluators, each
   * evaluation sent as a score on the item's trace. Never rejects: a task that throws is in `error`.
   */
  runItem(item: Item, index: number): Promise<ExperimentItemResult<Item>>;
  /**
   * Runs the run evaluators over `itemResults` (their scores carry the run's id), then resolves
   * once every span and score of the run is on the server, with the run's result.
   */
  finish(itemResults: ExperimentItemResult<Item>[]): Promise<ExperimentResult<Item>>;
}

/**
 * Starts a run of `params` (already checked) on local data, or on `dataset`'s items. Without a
 * `host` (obs not configured) the run is local: items and evaluators run, nothing is sent and
 * nothing warns that it is not.
 */
export async function startRun<Item extends ExperimentDataItem>(
  host: ExperimentHost | undefined,
  params: RunExperimentParams<Item>,
  dataset: DatasetSource | undefined,
): Promise<ExperimentRun<Item>> {
  const { name, description, metadata, task } = params;
  const runName = params.runName ?? `${name} - ${new Date().toISOString()}`;
  const experimentId =
    dataset && host ? await datasetRunExperimentId((await host.getProjectId()) ?? '', dataset.id, runName) : randomExperimentId();
  const version = params.datasetVersion ?? dataset?.version;
  const settings: ItemRunSettings<Item> = {
    experimentId,
    runName,
    name,
    description,
    metadata,
    datasetId: dataset?.id,
    datasetVersion: version instanceof Date ? version.toISOString() : version,
    task,
    evaluators: params.evaluators ?? [],
    score: host?.score,
  };
  return {
    experimentId,
    runName,
    runItem: (item, index) => runItem(settings, item, index),
    async finish(itemResults) {
      const runEvaluations: Evaluation[] = [];
      for (const [i, evaluator] of (params.runEvaluators ?? []).entries()) {
        const evaluatorLabel = evaluatorName(evaluator, i);
        try {
          for (const evaluation of evaluationList(await evaluator({ itemResults }), evaluatorLabel)) {
            runEvaluations.push(evaluation);
            host?.score.create(evaluationScore(evaluation, { datasetRunId: experimentId }));
          }
        } catch (err) {
          logger.error(`experiment run evaluator "${evaluatorLabel}" failed: ${describeError(err)}; its scores are skipped`);
        }
      }
      // The URL must show a complete run: every span and score is on the server before we resolve.
      await flushObsSpans().catch((err: unknown) => logger.error(`experiment: flushing spans failed: ${describeError(err)}`));
      await host?.score.flush();
      const experimentUrl = await host?.getExperimentUrl(experimentId);
      const summary = { name, runName, experimentId, experimentUrl, itemResults, runEvaluations };
      return { experimentId, runName, experimentUrl, itemResults, runEvaluations, format: (options) => formatExperiment(summary, options) };
    },
  };
}

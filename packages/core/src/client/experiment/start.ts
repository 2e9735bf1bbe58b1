/** `startExperimentRun` (`@obs/core/kit`): a run driven item by item by a test runner. */
import type { ExperimentManager } from './manager.js';
import { type DatasetSource, type ExperimentRun, startRun } from './run.js';
import type { ExperimentDataItem, RunExperimentParams } from './types.js';
import { experimentParamsProblem } from './validate-params.js';

/**
 * Starts an experiment run whose items the caller runs one at a time (`run.runItem(item, i)`, one
 * test each), then finishes (`run.finish(results)`): the same traces, experiment attributes,
 * evaluators and scores as `client.experiment.run` (local data) or `dataset.runExperiment` (with
 * `dataset`: the dataset's id, and its version when the items were read at one). `maxConcurrency`,
 * `onProgress` and `showProgress` are the caller's business and ignored here. Without a `client`
 * (obs not configured) the run is local: tasks and evaluators run, nothing is sent, nothing warns.
 * Invalid arguments reject with a `TypeError`.
 */
export function startExperimentRun<Item extends ExperimentDataItem>(
  client: { readonly experiment: ExperimentManager } | undefined,
  params: RunExperimentParams<Item>,
  dataset?: DatasetSource,
): Promise<ExperimentRun<Item>> {
  if (client) return client.experiment.start(params, dataset);
  const problem = experimentParamsProblem(params, false);
  return problem ? Promise.reject(new TypeError(`startExperimentRun: ${problem}`)) : startRun(undefined, params, undefined);
}

/** Deleting an experiment: there is no endpoint for it (contract 4.4), so its items' traces are deleted. */
import type { ObsApiClient } from '../api/client.js';
import type { RequestOptions } from '../api/core/types.js';
import { cursorItems } from '../api/paging.js';

/** Which experiment to delete. */
export interface DeleteExperimentParams {
  /** The experiment (dataset run) name: the run name. */
  experimentName: string;
  /** Narrows to one dataset's experiment of that name. */
  datasetId?: string;
  requestOptions?: RequestOptions;
}

/** What a deletion removed. */
export interface DeleteExperimentResult {
  /** Distinct traces deleted (with their observations and scores). */
  deletedTraceIds: string[];
}

/**
 * Pages `experiments.listItems` by cursor until the cursor is empty, collects the distinct trace
 * ids, then deletes them with `trace.deleteMultiple` (consecutive requests of at most 1,000).
 */
export async function deleteExperiment(api: ObsApiClient, params: DeleteExperimentParams): Promise<DeleteExperimentResult> {
  const { experimentName, datasetId, requestOptions } = params ?? ({} as DeleteExperimentParams);
  if (typeof experimentName !== 'string' || experimentName === '') {
    throw new TypeError('experiment.delete: `experimentName` must be a non-empty string; nothing was deleted');
  }
  const ids = new Set<string>();
  for await (const item of cursorItems((cursor) => api.experiments.listItems({ experimentName, datasetId, cursor }, requestOptions))) {
    if (typeof item?.traceId === 'string' && item.traceId !== '') ids.add(item.traceId);
  }
  const deletedTraceIds = [...ids];
  if (deletedTraceIds.length > 0) await api.trace.deleteMultiple({ traceIds: deletedTraceIds }, requestOptions);
  return { deletedTraceIds };
}

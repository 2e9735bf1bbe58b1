export { ObsApiClient } from './client.js';
export { ObsApiError, ObsApiTimeoutError } from './core/errors.js';
export type { BackoffOptions } from '../../util/retry.js';
export type { EmptyRequest, RequestOptions } from './core/types.js';
export {
  MAX_TRACE_IDS_PER_DELETE,
  type DeleteTracesRequest,
  type GetScoresRequest,
  type ListDatasetsRequest,
  type ListDatasetItemsRequest,
  type GetObservationsRequest,
  type ObservationFieldGroup,
  type MetricsRequest,
  type ListExperimentsRequest,
  type ListExperimentItemsRequest,
  type GetPromptRequest,
  type UpdatePromptVersionRequest,
} from './endpoints.js';
export type * from './types.js';

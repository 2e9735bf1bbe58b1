/**
 * `@obs/client`: the JS SDK's `client` package (`ObsClient` with scores, prompts, datasets, media
 * and the generated API client), re-exported from `@obs/core` so that both import paths share one
 * module instance.
 */
export { ObsClient, ObsApiClient, ObsApiError, ObsApiTimeoutError, MAX_SCORE_BATCH_SIZE } from '@obs/core';
export type {
  ObsClientOptions,
  RequestOptions,
  EmptyRequest,
  ScoreManager,
  ScoreBody,
  ScoreTarget,
  TargetedScoreBody,
  PromptManager,
  GetPromptOptions,
  UpdatePromptParams,
  DatasetManager,
  Dataset,
  GetDatasetOptions,
  MediaManager,
  ResolveMediaReferencesParams,
  CreateScoreRequest,
  CreateScoresResponse,
  CreateScoreBatchResponse,
  CreateScoreBatchResults,
  Score,
  ScoreDataType,
  GetScoresV3Response,
  ObservationV2,
  ObservationsV2Response,
  DatasetRecord,
  DatasetItem,
  Experiment,
  ExperimentItem,
  PromptRecord,
  ChatMessage,
  CursorPage,
} from '@obs/core';

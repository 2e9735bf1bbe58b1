export { ObsClient } from './client.js';
export type { ObsClientOptions } from './options.js';
export * from './api/index.js';
export { MAX_SCORE_BATCH_SIZE } from './scores/queue.js';
export type { ScoreManager } from './scores/manager.js';
export type { ScoreBody, ScoreTarget, TargetedScoreBody } from './scores/types.js';
export { DEFAULT_PROMPT_CACHE_TTL_SECONDS, type PromptManager, type GetPromptOptions, type UpdatePromptParams } from './managers/prompt.js';
export {
  TextPromptClient,
  ChatPromptClient,
  type PromptClient,
  type ChatPromptEntry,
  type LangchainMessageTemplate,
  type PromptJson,
} from './prompts/prompt-client.js';
export type { DatasetManager, Dataset, GetDatasetOptions, CreateItemFromTraceOptions } from './managers/dataset.js';
export type { ExperimentManager } from './experiment/manager.js';
export type * from './experiment/types.js';
export type { DeleteExperimentParams, DeleteExperimentResult } from './experiment/delete.js';
export { cursorPages, cursorItems, type CursorPageFetcher } from './api/paging.js';
export type { MediaManager, ResolveMediaReferencesParams } from './managers/media.js';

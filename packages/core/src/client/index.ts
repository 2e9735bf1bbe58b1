export { ObsClient } from './client.js';
export type { ObsClientOptions } from './options.js';
export * from './api/index.js';
export { MAX_SCORE_BATCH_SIZE } from './scores/queue.js';
export type { ScoreManager } from './scores/manager.js';
export type { ScoreBody, ScoreTarget, TargetedScoreBody } from './scores/types.js';
export type { PromptManager, GetPromptOptions, UpdatePromptParams } from './managers/prompt.js';
export type { DatasetManager, Dataset, GetDatasetOptions } from './managers/dataset.js';
export type { MediaManager, ResolveMediaReferencesParams } from './managers/media.js';

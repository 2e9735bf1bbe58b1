export { ObsClient } from './client.js';
export type { ObsClientOptions } from './options.js';
export * from './api/index.js';
export { ScoreManager } from './scores/manager.js';
export { MAX_SCORE_BATCH_SIZE } from './scores/queue.js';
export type { ScoreBody, ScoreTarget, TargetedScoreBody } from './scores/types.js';
export { PromptManager, type GetPromptOptions, type UpdatePromptParams } from './managers/prompt.js';
export { DatasetManager, type Dataset, type GetDatasetOptions } from './managers/dataset.js';
export { MediaManager, type ResolveMediaReferencesParams } from './managers/media.js';

/**
 * `@obs/core/browser`: scoring from browsers with the public key. This entry's import graph
 * holds no Node built-ins (a test walks it).
 */
export { ObsBrowserClient, type BrowserScore, type ObsBrowserClientOptions } from './client.js';
export type { ScoreBody } from '../client/scores/types.js';
export type { CreateScoreRequest, ScoreDataType } from '../client/api/types.js';
export { ObsApiError, ObsApiTimeoutError } from '../client/api/core/errors.js';

/**
 * `@obs/openai`: `observeOpenAI(new OpenAI())` makes every call of an OpenAI SDK client an obs
 * generation or embedding, nested under the active observation.
 *
 * @packageDocumentation
 */
export { observeOpenAI, type ObserveOpenAIOptions } from './observe-openai.js';

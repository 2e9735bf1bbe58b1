/**
 * `@obs/google-genai`: `observeGoogleGenAI(new GoogleGenAI())` makes every `generateContent`,
 * `generateContentStream`, chat turn and `embedContent` call of a Google Gen AI SDK client an obs
 * generation or embedding, nested under the active observation.
 *
 * @packageDocumentation
 */
export { observeGoogleGenAI, type ObserveGoogleGenAIOptions } from './observe-google-genai.js';

/**
 * `@obs/langchain`: a LangChain callback handler that turns LangChain and LangGraph runs into obs
 * observations.
 *
 * @packageDocumentation
 */
export { CallbackHandler } from './callback-handler.js';
export type { CallbackHandlerOptions } from './options.js';

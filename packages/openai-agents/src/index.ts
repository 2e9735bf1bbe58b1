/**
 * `@obs/openai-agents`: `observeOpenAIAgents()` records every OpenAI Agents SDK run as an obs
 * trace of agents, generations, tools, handoffs and guardrails.
 *
 * @packageDocumentation
 */
export { observeOpenAIAgents } from './observe.js';
export { ObsTraceProcessor } from './processor.js';

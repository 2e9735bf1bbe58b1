/**
 * `@obs/claude-agent-sdk`: `observeClaudeAgent(query)` records every Claude Agent SDK query as an
 * obs agent with its model turns, tool calls and subagents.
 *
 * @packageDocumentation
 */
export { observeClaudeAgent, type ObserveClaudeAgentOptions } from './observe-claude-agent.js';

/**
 * Claude's messages in obs's one shape: an assistant turn's content blocks (text, thinking,
 * tool_use) as `{ role: 'assistant', content, tool_calls: [{ id, name, args }], reasoning }`, a
 * user message's tool results as `{ role: 'tool', tool_call_id, content }`, and the Messages
 * API's usage in obs's disjoint buckets (Anthropic's `input_tokens` already excludes the cache
 * reads and writes, which are buckets of their own).
 */
import { type Dict, finiteNumber, isDict, type LlmToolCall, toolCall, usageDetails } from '@obs/core/kit';

/** The assistant message of a turn's blocks. */
export function assistantMessage(blocks: Dict[]): Dict {
  const texts: string[] = [];
  const reasoning: string[] = [];
  const calls: LlmToolCall[] = [];
  for (const b of blocks) {
    if (b['type'] === 'text' && typeof b['text'] === 'string') texts.push(b['text']);
    else if (b['type'] === 'thinking' && typeof b['thinking'] === 'string') reasoning.push(b['thinking']);
    else if (b['type'] === 'tool_use' || b['type'] === 'server_tool_use' || b['type'] === 'mcp_tool_use')
      calls.push(toolCall(b['id'], b['name'], b['input']));
  }
  const out: Dict = { role: 'assistant', content: texts.join('') };
  if (calls.length > 0) out['tool_calls'] = calls;
  if (reasoning.length > 0) out['reasoning'] = reasoning.join('');
  return out;
}

/** A user message (a prompt, or tool results) as obs messages. */
export function userMessages(message: unknown): unknown[] {
  if (!isDict(message)) return [];
  const content = message['content'];
  if (!Array.isArray(content)) return [{ role: 'user', content }];
  const out: unknown[] = [];
  const texts: string[] = [];
  for (const block of content) {
    if (!isDict(block)) continue;
    if (block['type'] === 'tool_result')
      out.push({ role: 'tool', tool_call_id: block['tool_use_id'], content: resultContent(block['content']) });
    else if (block['type'] === 'text' && typeof block['text'] === 'string') texts.push(block['text']);
    else out.push({ role: 'user', content: [block] });
  }
  if (texts.length > 0) out.unshift({ role: 'user', content: texts.join('') });
  return out;
}

/** A tool result's text when it is text blocks only, else its blocks. */
export function resultContent(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  const texts: string[] = [];
  for (const b of content) {
    if (!isDict(b) || b['type'] !== 'text' || typeof b['text'] !== 'string') return content;
    texts.push(b['text']);
  }
  return texts.join('');
}

/** Messages API usage (`input_tokens` without the cache parts) as obs `usage_details`. */
export function claudeUsage(usage: unknown): Record<string, number> | undefined {
  if (!isDict(usage)) return undefined;
  const read = finiteNumber(usage['cache_read_input_tokens']);
  const write = finiteNumber(usage['cache_creation_input_tokens']);
  const input = finiteNumber(usage['input_tokens']);
  return usageDetails({
    input: input === undefined ? undefined : input + (read ?? 0) + (write ?? 0),
    output: usage['output_tokens'],
    inputParts: { cache_read: read, cache_write: write },
  });
}

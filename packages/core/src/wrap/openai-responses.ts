/**
 * OpenAI's Responses format as obs reads it, for both packages that meet it: `@obs/openai`
 * (`responses.create`) and `@obs/openai-agents` (the Agents SDK's `response` spans hold the same
 * input items and response object). Input items become messages (function calls and their
 * outputs as tool calls and tool messages, reasoning items as reasoning), the response's output
 * list one assistant message, its status a level: `incomplete` a WARNING, `failed` an ERROR.
 */
import { type LlmToolCall, toolCall } from '../genai/messages.js';
import { isDict } from '../util/guards.js';
import type { CallResult } from './endpoint.js';
import { openAiCost, openAiUsage } from './openai-chat.js';

/** The settings a Responses request sends and its response echoes, kept as model parameters. */
export const OPENAI_RESPONSE_PARAMETERS = [
  'temperature',
  'top_p',
  'max_output_tokens',
  'tool_choice',
  'parallel_tool_calls',
  'truncation',
  'service_tier',
] as const;

/**
 * A request's `input` (a string or items) as messages. The Agents SDK writes its own protocol
 * into the same list (`callId`, `function_call_result`, tool outputs as `{ type: 'text', text }`).
 */
export function openAiResponseInput(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) return input === undefined ? [] : [input];
  return input.map((item) => {
    if (!isDict(item)) return item;
    const type = item['type'];
    const callId = item['call_id'] ?? item['callId'];
    if (type === 'function_call')
      return { role: 'assistant', content: '', tool_calls: [toolCall(callId, item['name'], item['arguments'])] };
    if (type === 'function_call_output' || type === 'function_call_result') {
      const output = item['output'];
      const text = isDict(output) && output['type'] === 'text' && typeof output['text'] === 'string' ? output['text'] : output;
      return { role: 'tool', tool_call_id: callId, content: text };
    }
    if (type === 'reasoning') return { role: 'assistant', content: '', reasoning: partsText(item['content'] ?? item['summary']) };
    if (item['role'] !== undefined) return { role: item['role'], content: textOrParts(item['content']) };
    return item;
  });
}

/** A response object as a call's result: model, output message, usage, cost, and its status as a level. */
export function openAiResponse(response: unknown): CallResult {
  if (!isDict(response)) return { output: response };
  const result: CallResult = {
    model: response['model'],
    output: outputMessage(response['output']),
    usageDetails: openAiUsage(response['usage']),
    costDetails: openAiCost(response['usage']),
  };
  if (response['status'] === 'incomplete') {
    const reason = isDict(response['incomplete_details']) ? response['incomplete_details']['reason'] : undefined;
    result.level = 'WARNING';
    result.statusMessage = `incomplete${reason ? `: ${String(reason)}` : ''}`;
  } else if (response['status'] === 'failed') {
    result.level = 'ERROR';
    result.statusMessage = isDict(response['error']) ? String(response['error']['message'] ?? 'failed') : 'failed';
  }
  return result;
}

/** The output items as one assistant message: text, refusal, function calls, reasoning summary. */
function outputMessage(items: unknown): unknown {
  if (!Array.isArray(items)) return items;
  const texts: string[] = [];
  const refusals: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: LlmToolCall[] = [];
  for (const item of items) {
    if (!isDict(item)) continue;
    if (item['type'] === 'message' && Array.isArray(item['content'])) {
      for (const part of item['content']) {
        if (!isDict(part)) continue;
        if (part['type'] === 'output_text' && typeof part['text'] === 'string') texts.push(part['text']);
        else if (part['type'] === 'refusal' && typeof part['refusal'] === 'string') refusals.push(part['refusal']);
      }
    } else if (item['type'] === 'function_call') toolCalls.push(toolCall(item['call_id'], item['name'], item['arguments']));
    else if (item['type'] === 'reasoning') reasoning.push(partsText(item['summary']));
  }
  const out: Record<string, unknown> = { role: 'assistant', content: texts.join('') };
  if (toolCalls.length > 0) out['tool_calls'] = toolCalls;
  if (refusals.length > 0) out['refusal'] = refusals.join('');
  if (reasoning.some((r) => r !== '')) out['reasoning'] = reasoning.join('');
  return out;
}

/** A message's text when it holds only text parts (`input_text`, `output_text`), else its parts. */
function textOrParts(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  const texts: string[] = [];
  for (const p of content) {
    if (!isDict(p) || typeof p['text'] !== 'string' || !String(p['type']).endsWith('text')) return content;
    texts.push(p['text']);
  }
  return texts.join('');
}

function partsText(parts: unknown): string {
  if (!Array.isArray(parts)) return '';
  return parts.map((p) => (isDict(p) && typeof p['text'] === 'string' ? p['text'] : '')).join('');
}

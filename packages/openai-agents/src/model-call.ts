/**
 * One model call of an agent run as obs generation fields, from the SDK's two model span kinds:
 * a `response` span (the Responses API model, the SDK's default: `_input` holds the run's input
 * items, `_response` the API's response, both only when the SDK includes sensitive data) and a
 * `generation` span (the Chat Completions model: chat messages in, the API's completions out).
 * Messages come out in obs's one shape (`{ role, content, tool_calls: [{ id, name, args }] }`),
 * usage in obs's disjoint buckets.
 */
import { dict, type Dict, isDict, type LlmToolCall, toolCall, usageDetails } from '@obs/core/kit';

/** What a model span adds to its generation when it ends. */
export interface ModelCallFields {
  model?: string;
  input?: unknown;
  output?: unknown;
  modelParameters?: Record<string, unknown>;
  usageDetails?: Record<string, number>;
  metadata?: Record<string, unknown>;
  level?: 'WARNING';
  statusMessage?: string;
}

/** Request settings of a Responses API call kept as model parameters. */
const RESPONSE_PARAMETERS = [
  'temperature',
  'top_p',
  'max_output_tokens',
  'tool_choice',
  'parallel_tool_calls',
  'truncation',
  'service_tier',
];
/** The SDK's `ModelSettings` keys kept as model parameters of a Chat Completions call. */
const MODEL_SETTINGS = [
  'temperature',
  'topP',
  'maxTokens',
  'toolChoice',
  'parallelToolCalls',
  'truncation',
  'frequencyPenalty',
  'presencePenalty',
];

/** A `response` span: the input items and the Responses API's response object. */
export function responseCall(data: Dict): ModelCallFields {
  const response = isDict(data['_response']) ? data['_response'] : undefined;
  const out: ModelCallFields = {};
  const instructions =
    response && typeof response['instructions'] === 'string' ? [{ role: 'system', content: response['instructions'] }] : [];
  if (data['_input'] !== undefined) out.input = [...instructions, ...itemMessages(data['_input'])];
  if (typeof data['response_id'] === 'string') out.metadata = { response_id: data['response_id'] };
  if (!response) return out;
  if (typeof response['model'] === 'string') out.model = response['model'];
  out.output = outputMessage(response['output']);
  out.modelParameters = pick(response, RESPONSE_PARAMETERS);
  const usage = dict(response['usage']);
  out.usageDetails = usageDetails({
    input: usage['input_tokens'],
    output: usage['output_tokens'],
    total: usage['total_tokens'],
    inputParts: { cache_read: dict(usage['input_tokens_details'])['cached_tokens'] },
    outputParts: { reasoning: dict(usage['output_tokens_details'])['reasoning_tokens'] },
  });
  if (response['status'] === 'incomplete') {
    const reason = dict(response['incomplete_details'])['reason'];
    out.level = 'WARNING';
    out.statusMessage = `incomplete${reason ? `: ${String(reason)}` : ''}`;
  }
  return out;
}

/** A `generation` span: chat messages in, Chat Completions responses (or messages) out. */
export function generationCall(data: Dict): ModelCallFields {
  const out: ModelCallFields = {};
  if (typeof data['model'] === 'string') out.model = data['model'];
  if (Array.isArray(data['input'])) out.input = data['input'].map(chatMessage);
  out.modelParameters = pick(dict(data['model_config']), MODEL_SETTINGS);
  const outputs = Array.isArray(data['output']) ? data['output'].filter(isDict) : [];
  const completion = outputs.find((o) => Array.isArray(o['choices']));
  if (completion) {
    const choice = (completion['choices'] as unknown[]).find(isDict);
    if (choice) out.output = chatMessage(choice['message']);
    if (typeof completion['model'] === 'string') out.model = completion['model'];
  } else if (outputs.length > 0) out.output = outputs.length === 1 ? chatMessage(outputs[0]) : outputs.map(chatMessage);
  // The SDK's own usage when it set one (input_tokens / output_tokens), else the completion's.
  const usage = isDict(data['usage']) ? data['usage'] : dict(completion?.['usage']);
  const details = dict(usage['details']);
  out.usageDetails = usageDetails({
    input: usage['input_tokens'] ?? usage['prompt_tokens'],
    output: usage['output_tokens'] ?? usage['completion_tokens'],
    total: usage['total_tokens'],
    inputParts: {
      cache_read:
        dict(usage['input_tokens_details'])['cached_tokens'] ??
        dict(usage['prompt_tokens_details'])['cached_tokens'] ??
        details['cached_tokens'],
    },
    outputParts: {
      reasoning:
        dict(usage['output_tokens_details'])['reasoning_tokens'] ??
        dict(usage['completion_tokens_details'])['reasoning_tokens'] ??
        details['reasoning_tokens'],
    },
  });
  return out;
}

/** The SDK's input items (its own protocol: `callId`, `function_call_result`) as messages. */
export function itemMessages(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) return [input];
  return input.map((item) => {
    if (!isDict(item)) return item;
    const type = item['type'];
    if (type === 'function_call') {
      return { role: 'assistant', content: '', tool_calls: [toolCall(item['callId'] ?? item['call_id'], item['name'], item['arguments'])] };
    }
    if (type === 'function_call_result' || type === 'function_call_output') {
      return { role: 'tool', tool_call_id: item['callId'] ?? item['call_id'], content: resultText(item['output']) };
    }
    if (type === 'reasoning') return { role: 'assistant', content: '', reasoning: partsText(item['content'] ?? item['summary']) };
    if (item['role'] !== undefined) return { role: item['role'], content: textOrParts(item['content']) };
    return item;
  });
}

/** A Responses API output list as one assistant message: text, refusal, function calls, reasoning. */
function outputMessage(items: unknown): unknown {
  if (!Array.isArray(items)) return items;
  const texts: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: LlmToolCall[] = [];
  let refusal: string | undefined;
  for (const item of items) {
    if (!isDict(item)) continue;
    if (item['type'] === 'message' && Array.isArray(item['content'])) {
      for (const part of item['content']) {
        if (!isDict(part)) continue;
        if (part['type'] === 'output_text' && typeof part['text'] === 'string') texts.push(part['text']);
        else if (part['type'] === 'refusal' && typeof part['refusal'] === 'string') refusal = part['refusal'];
      }
    } else if (item['type'] === 'function_call') toolCalls.push(toolCall(item['call_id'], item['name'], item['arguments']));
    else if (item['type'] === 'reasoning') reasoning.push(partsText(item['summary']));
  }
  const out: Dict = { role: 'assistant', content: texts.join('') };
  if (toolCalls.length > 0) out['tool_calls'] = toolCalls;
  if (refusal !== undefined) out['refusal'] = refusal;
  if (reasoning.some((r) => r !== '')) out['reasoning'] = reasoning.join('');
  return out;
}

/** A chat message with its tool calls (`{ id, function: { name, arguments } }`) normalised. */
function chatMessage(message: unknown): unknown {
  if (!isDict(message)) return message;
  const out: Dict = { role: message['role'] ?? 'assistant', content: message['content'] ?? '' };
  if (Array.isArray(message['tool_calls'])) {
    out['tool_calls'] = message['tool_calls'].filter(isDict).map((c) => {
      const fn = dict(c['function']);
      return toolCall(c['id'], fn['name'] ?? c['name'], fn['arguments'] ?? c['arguments']);
    });
  }
  if (message['tool_call_id'] !== undefined) out['tool_call_id'] = message['tool_call_id'];
  if (typeof message['refusal'] === 'string') out['refusal'] = message['refusal'];
  return out;
}

/** A message's text when it holds only text parts, else its parts. */
function textOrParts(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  const texts: string[] = [];
  for (const p of content) {
    if (!isDict(p) || typeof p['text'] !== 'string' || !String(p['type']).endsWith('text')) return content;
    texts.push(p['text']);
  }
  return texts.join('');
}

/** A tool result's text (`{ type: 'text', text }`), else the result as it is. */
function resultText(output: unknown): unknown {
  if (isDict(output) && output['type'] === 'text' && typeof output['text'] === 'string') return output['text'];
  return output;
}

function partsText(parts: unknown): string {
  if (!Array.isArray(parts)) return '';
  return parts.map((p) => (isDict(p) && typeof p['text'] === 'string' ? p['text'] : '')).join('');
}

function pick(from: Dict, keys: readonly string[]): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const key of keys) {
    const v = from[key];
    if (v === undefined || v === null) continue;
    out ??= {};
    out[key] = v;
  }
  return out;
}

/**
 * One model call of an agent run as obs generation fields, from the SDK's two model span kinds:
 * a `response` span (the Responses API model, the SDK's default: `_input` holds the run's input
 * items, `_response` the API's response, both only when the SDK includes sensitive data) and a
 * `generation` span (the Chat Completions model: chat messages in, the API's completions out).
 * Messages come out in obs's one shape (`{ role, content, tool_calls: [{ id, name, args }] }`),
 * usage in obs's disjoint buckets.
 */
import {
  dict,
  type Dict,
  isDict,
  OPENAI_RESPONSE_PARAMETERS,
  openAiChatMessage,
  openAiResponse,
  openAiResponseInput,
  pick,
  usageDetails,
} from '@obs/core/kit';

/** What a model span adds to its generation when it ends. */
export interface ModelCallFields {
  model?: string;
  input?: unknown;
  output?: unknown;
  modelParameters?: Record<string, unknown>;
  usageDetails?: Record<string, number>;
  metadata?: Record<string, unknown>;
  level?: 'WARNING' | 'ERROR';
  statusMessage?: string;
}

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
  if (data['_input'] !== undefined) out.input = [...instructions, ...openAiResponseInput(data['_input'])];
  if (typeof data['response_id'] === 'string') out.metadata = { response_id: data['response_id'] };
  if (!response) return out;
  const { model, output, usageDetails, level, statusMessage } = openAiResponse(response);
  Object.assign(out, { output, usageDetails, modelParameters: pick(response, OPENAI_RESPONSE_PARAMETERS) });
  if (typeof model === 'string') out.model = model;
  if (level) Object.assign(out, { level, statusMessage });
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

/** A chat message in obs's shape; the SDK's outputs may leave the assistant's role out. */
function chatMessage(message: unknown): unknown {
  const out = openAiChatMessage(message);
  if (isDict(out)) out['role'] ??= 'assistant';
  return out;
}

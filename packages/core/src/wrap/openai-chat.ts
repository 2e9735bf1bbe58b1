/**
 * OpenAI's Chat Completions format as obs reads it, for every client that speaks it (the
 * `openai` SDK against OpenAI or any OpenAI-compatible API, and SDKs generated alike): the
 * request's messages in obs's shape (`{ role, content, tool_calls: [{ id, name, args }] }`), its
 * sampling parameters, the answer from the completion or assembled from the stream's deltas, and
 * usage in disjoint buckets. OpenAI counts cached input, audio and reasoning inside its totals;
 * obs moves them out (`input_cache_read`, `input_audio`, `output_reasoning`, ...). Compatible
 * providers' own fields are read where they differ: DeepSeek's `prompt_cache_hit_tokens`, a
 * top-level `cached_tokens` (Moonshot), OpenRouter's `cache_write_tokens` and `cost`, xAI's
 * `image_tokens`, Groq's streamed `x_groq.usage`, `reasoning_content` (DeepSeek, vLLM); a
 * self-hosted server is named by its answers (Ollama's `fp_ollama`, the fields only vLLM adds).
 */
import { type LlmMessage, toolCall } from '../genai/messages.js';
import { usageDetails } from '../genai/usage.js';
import { dict, isDict } from '../util/guards.js';
import { type CallResult, type ModelEndpoint, pick, type StreamReader } from './endpoint.js';

const PARAMETERS = [
  'temperature',
  'top_p',
  'max_tokens',
  'max_completion_tokens',
  'n',
  'stop',
  'presence_penalty',
  'frequency_penalty',
  'seed',
  'logprobs',
  'top_logprobs',
  'logit_bias',
  'tool_choice',
  'parallel_tool_calls',
  'reasoning_effort',
  'service_tier',
  'modalities',
  'stream',
] as const;

export const OPENAI_CHAT: ModelEndpoint = {
  name: 'openai.chat.completions.create',
  type: 'generation',
  request(body) {
    let parameters = pick(body, PARAMETERS);
    const format = body['response_format'];
    const metadata: Record<string, unknown> = {};
    if (isDict(format)) {
      parameters = { ...parameters, response_format: format['type'] };
      // One JSON value: metadata objects are flattened key by key, and a schema has many.
      if (format['type'] === 'json_schema') metadata['response_format'] = JSON.stringify(format);
    }
    if (Array.isArray(body['tools'])) metadata['tools'] = body['tools'];
    return {
      model: body['model'],
      input: Array.isArray(body['messages']) ? body['messages'].map(openAiChatMessage) : body['messages'],
      modelParameters: parameters,
      metadata,
    };
  },
  response(completion) {
    if (!isDict(completion)) return { output: completion };
    const choices = Array.isArray(completion['choices']) ? completion['choices'] : [];
    const messages = choices.map((c) => openAiChatMessage(isDict(c) ? c['message'] : c));
    const provider = openAiServerOf(completion);
    return {
      model: completion['model'],
      output: messages.length === 1 ? messages[0] : messages,
      usageDetails: openAiUsage(completion['usage']),
      costDetails: openAiCost(completion['usage']),
      metadata: provider ? { provider } : undefined,
    };
  },
  stream: () => new ChatStreamReader(),
};

/** An OpenAI chat message (request or response) in obs's shape. */
export function openAiChatMessage(m: unknown): unknown {
  if (!isDict(m)) return m;
  const out: LlmMessage & Record<string, unknown> = { role: m['role'], content: m['content'] ?? '' };
  const calls = Array.isArray(m['tool_calls']) ? m['tool_calls'].filter(isDict).map(chatToolCall) : [];
  // The deprecated single function call.
  if (isDict(m['function_call'])) calls.push(toolCall(undefined, m['function_call']['name'], m['function_call']['arguments']));
  if (calls.length > 0) out.tool_calls = calls;
  if (m['tool_call_id'] !== undefined) out.tool_call_id = m['tool_call_id'];
  if (typeof m['name'] === 'string') out['name'] = m['name'];
  if (typeof m['refusal'] === 'string') out['refusal'] = m['refusal'];
  // OpenAI-compatible servers that return reasoning text (DeepSeek, OpenRouter, vLLM).
  const reasoning = m['reasoning_content'] ?? m['reasoning'];
  if (typeof reasoning === 'string' && reasoning !== '') out.reasoning = reasoning;
  return out;
}

function chatToolCall(c: Record<string, unknown>) {
  const fn = isDict(c['function']) ? c['function'] : c;
  return toolCall(c['id'], fn['name'], fn['arguments']);
}

/** One choice as its deltas arrive. */
interface ChoiceState {
  role: unknown;
  content: string[];
  refusal: string[];
  reasoning: string[];
  toolCalls: Map<number, { id?: unknown; name: string; args: string[] }>;
  finished: boolean;
}

/** Assembles a chat completion stream: each choice's text, refusal, reasoning and tool calls; usage from the last chunk. */
class ChatStreamReader implements StreamReader {
  private readonly choices = new Map<number, ChoiceState>();
  private model: unknown;
  private usage: unknown;
  private provider: string | undefined;

  read(chunk: unknown): boolean {
    if (!isDict(chunk)) return false;
    if (chunk['model'] !== undefined) this.model = chunk['model'];
    this.provider ??= openAiServerOf(chunk);
    if (isDict(chunk['usage'])) this.usage = chunk['usage'];
    // Groq sends a stream's usage in its own extension.
    else if (isDict(chunk['x_groq']) && isDict(chunk['x_groq']['usage'])) this.usage ??= chunk['x_groq']['usage'];
    let output = false;
    if (!Array.isArray(chunk['choices'])) return false;
    for (const c of chunk['choices']) {
      if (!isDict(c)) continue;
      const state = this.choice(typeof c['index'] === 'number' ? c['index'] : 0);
      if (c['finish_reason']) state.finished = true;
      const delta = c['delta'];
      if (!isDict(delta)) continue;
      if (delta['role'] !== undefined) state.role = delta['role'];
      output = append(state.content, delta['content']) || output;
      output = append(state.refusal, delta['refusal']) || output;
      output = append(state.reasoning, delta['reasoning_content'] ?? delta['reasoning']) || output;
      if (Array.isArray(delta['tool_calls'])) {
        for (const t of delta['tool_calls']) {
          if (!isDict(t)) continue;
          const index = typeof t['index'] === 'number' ? t['index'] : state.toolCalls.size;
          let call = state.toolCalls.get(index);
          if (!call) state.toolCalls.set(index, (call = { name: '', args: [] }));
          if (t['id'] !== undefined) call.id = t['id'];
          const fn = isDict(t['function']) ? t['function'] : {};
          if (typeof fn['name'] === 'string') call.name += fn['name'];
          append(call.args, fn['arguments']);
          output = true;
        }
      }
    }
    return output;
  }

  result(): CallResult & { finished: boolean } {
    const messages = [...this.choices.values()].map((s) =>
      openAiChatMessage({
        role: s.role ?? 'assistant',
        content: s.content.join(''),
        refusal: s.refusal.length > 0 ? s.refusal.join('') : undefined,
        reasoning_content: s.reasoning.join(''),
        tool_calls: [...s.toolCalls.values()].map((t) => ({ id: t.id, function: { name: t.name, arguments: t.args.join('') } })),
      }),
    );
    return {
      model: this.model,
      output: messages.length === 0 ? undefined : messages.length === 1 ? messages[0] : messages,
      usageDetails: openAiUsage(this.usage),
      costDetails: openAiCost(this.usage),
      metadata: this.provider ? { provider: this.provider } : undefined,
      finished: this.choices.size > 0 && [...this.choices.values()].every((s) => s.finished),
    };
  }

  private choice(index: number): ChoiceState {
    let s = this.choices.get(index);
    if (!s)
      this.choices.set(index, (s = { role: undefined, content: [], refusal: [], reasoning: [], toolCalls: new Map(), finished: false }));
    return s;
  }
}

function append(parts: string[], v: unknown): boolean {
  if (typeof v !== 'string' || v === '') return false;
  parts.push(v);
  return true;
}

/** `usage_details` of any OpenAI usage object; `undefined` when there is none. */
export function openAiUsage(usage: unknown): Record<string, number> | undefined {
  if (!isDict(usage)) return undefined;
  // Both APIs name the details after their totals: `prompt_tokens_details`, `input_tokens_details`, ...
  const responses = 'input_tokens' in usage || 'output_tokens' in usage;
  const input = responses ? 'input_tokens' : 'prompt_tokens';
  const output = responses ? 'output_tokens' : 'completion_tokens';
  const inDetails = dict(usage[`${input}_details`]);
  const outDetails = dict(usage[`${output}_details`]);
  return usageDetails({
    input: usage[input],
    output: usage[output],
    total: usage['total_tokens'],
    inputParts: {
      cache_read: inDetails['cached_tokens'] ?? usage['prompt_cache_hit_tokens'] ?? usage['cached_tokens'],
      cache_write: inDetails['cache_write_tokens'],
      audio: inDetails['audio_tokens'],
      image: inDetails['image_tokens'],
    },
    outputParts: { reasoning: outDetails['reasoning_tokens'], audio: outDetails['audio_tokens'] },
  });
}

/** `cost_details` of a provider that prices the call in its usage (OpenRouter's `cost`). */
export function openAiCost(usage: unknown): Record<string, number> | undefined {
  const cost = isDict(usage) ? usage['cost'] : undefined;
  return typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? { total: cost } : undefined;
}

/** The self-hosted server an answer (a completion or a chunk) comes from, when it says: `ollama`, `vllm`. */
export function openAiServerOf(value: unknown): string | undefined {
  if (!isDict(value)) return undefined;
  if (value['system_fingerprint'] === 'fp_ollama') return 'ollama';
  if ('prompt_logprobs' in value || 'kv_transfer_params' in value || 'prompt_token_ids' in value) return 'vllm';
  return undefined;
}

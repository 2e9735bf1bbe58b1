/**
 * Spans of LLM libraries that speak OpenTelemetry's GenAI conventions (`gen_ai.operation.name`,
 * e.g. the Vercel AI SDK's `@ai-sdk/otel`) or the AI SDK's own `ai.*` attributes read as obs
 * observations: a model call becomes a `generation` with its model, parameters, input messages,
 * output and token usage on obs attributes. Applied once when the span ends; attributes the span
 * already carries (set through obs) are never overwritten.
 */
import type { Attributes, AttributeValue } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { ObsAttributes, type ObservationType } from '../../tracing/attributes.js';

type Dict = Record<string, unknown>;

/** Types of `gen_ai.operation.name` values (OTel GenAI semantic conventions). */
const OPERATION_TYPES: Record<string, ObservationType> = {
  chat: 'generation',
  text_completion: 'generation',
  generate_content: 'generation',
  embeddings: 'embedding',
  execute_tool: 'tool',
  invoke_agent: 'agent',
  create_agent: 'agent',
};

/** `gen_ai.request.*` keys that are model parameters. */
const REQUEST_PARAMETERS = [
  'temperature',
  'max_tokens',
  'top_p',
  'top_k',
  'frequency_penalty',
  'presence_penalty',
  'stop_sequences',
  'seed',
];

/** Maps a GenAI or AI SDK span's attributes onto obs observation attributes, in place. */
export function applyGenAiAttributes(span: ReadableSpan): void {
  const attrs = span.attributes as Attributes;
  if (attrs[ObsAttributes.OBSERVATION_TYPE] !== undefined) return; // an obs observation, or mapped already
  const operationId = attrs['ai.operationId'];
  if (typeof operationId === 'string') mapAiSdk(attrs, operationId);
  else if (typeof attrs['gen_ai.operation.name'] === 'string') mapSemconv(attrs, attrs['gen_ai.operation.name']);
}

/** OTel GenAI semantic conventions (`@ai-sdk/otel`'s `OpenTelemetry`, other GenAI instrumentations). */
function mapSemconv(attrs: Attributes, operation: string): void {
  const type = OPERATION_TYPES[operation];
  if (!type) return;
  const out: Attributes = { [ObsAttributes.OBSERVATION_TYPE]: type };
  const input = parseJson(attrs['gen_ai.input.messages']);
  if (input !== undefined) out[ObsAttributes.OBSERVATION_INPUT] = json(Array.isArray(input) ? input.map(semconvMessage) : input);
  const output = parseJson(attrs['gen_ai.output.messages']);
  if (output !== undefined) {
    const messages = Array.isArray(output) ? output.map(semconvMessage) : [output];
    out[ObsAttributes.OBSERVATION_OUTPUT] = json(messages.length === 1 ? messages[0] : messages);
  }
  if (type === 'tool') {
    setIfDefined(out, ObsAttributes.OBSERVATION_INPUT, attrs['gen_ai.tool.call.arguments']);
    setIfDefined(out, ObsAttributes.OBSERVATION_OUTPUT, attrs['gen_ai.tool.call.result']);
  }
  if (type === 'generation' || type === 'embedding') {
    setIfDefined(out, ObsAttributes.OBSERVATION_MODEL, attrs['gen_ai.response.model'] ?? attrs['gen_ai.request.model']);
    const params: Dict = {};
    for (const key of REQUEST_PARAMETERS) if (attrs[`gen_ai.request.${key}`] !== undefined) params[key] = attrs[`gen_ai.request.${key}`];
    if (Object.keys(params).length > 0) out[ObsAttributes.OBSERVATION_MODEL_PARAMETERS] = json(params);
    const usage = usageOf(attrs['gen_ai.usage.input_tokens'], attrs['gen_ai.usage.output_tokens'], undefined);
    if (usage) out[ObsAttributes.OBSERVATION_USAGE_DETAILS] = json(usage);
  }
  writeMissing(attrs, out);
}

/** The AI SDK's own attributes (`ai.*`: AI SDK 4-6, and `LegacyOpenTelemetry` of AI SDK 7). */
function mapAiSdk(attrs: Attributes, operationId: string): void {
  const out: Attributes = {};
  const modelCall = operationId.endsWith('.doGenerate') || operationId.endsWith('.doStream');
  if (modelCall) {
    out[ObsAttributes.OBSERVATION_TYPE] = 'generation';
    const messages = parseJson(attrs['ai.prompt.messages']);
    if (messages !== undefined)
      out[ObsAttributes.OBSERVATION_INPUT] = json(Array.isArray(messages) ? messages.map(aiSdkMessage) : messages);
    setIfDefined(out, ObsAttributes.OBSERVATION_MODEL, attrs['ai.response.model'] ?? attrs['ai.model.id']);
    const params: Dict = {};
    for (const key of Object.keys(attrs)) {
      if (key.startsWith('ai.settings.') && key !== 'ai.settings.maxRetries') params[key.slice('ai.settings.'.length)] = attrs[key];
    }
    if (Object.keys(params).length > 0) out[ObsAttributes.OBSERVATION_MODEL_PARAMETERS] = json(params);
    const usage = usageOf(
      attrs['ai.usage.inputTokens'] ?? attrs['ai.usage.promptTokens'],
      attrs['ai.usage.outputTokens'] ?? attrs['ai.usage.completionTokens'],
      attrs['ai.usage.totalTokens'],
    );
    if (usage) out[ObsAttributes.OBSERVATION_USAGE_DETAILS] = json(usage);
  } else if (operationId === 'ai.toolCall') {
    out[ObsAttributes.OBSERVATION_TYPE] = 'tool';
    setIfDefined(out, ObsAttributes.OBSERVATION_INPUT, attrs['ai.toolCall.args'] ?? attrs['ai.toolCall.input']);
    setIfDefined(out, ObsAttributes.OBSERVATION_OUTPUT, attrs['ai.toolCall.result'] ?? attrs['ai.toolCall.output']);
  } else if (operationId.startsWith('ai.embed')) {
    out[ObsAttributes.OBSERVATION_TYPE] = operationId.endsWith('.doEmbed') ? 'embedding' : 'span';
    setIfDefined(out, ObsAttributes.OBSERVATION_MODEL, attrs['ai.model.id']);
  } else {
    // The call around the model calls (ai.generateText, ai.streamText, ...): its prompt and result.
    out[ObsAttributes.OBSERVATION_TYPE] = 'span';
    setIfDefined(out, ObsAttributes.OBSERVATION_INPUT, attrs['ai.prompt']);
  }
  if (out[ObsAttributes.OBSERVATION_TYPE] !== 'tool') {
    const text = attrs['ai.response.text'] ?? attrs['ai.response.object'];
    const toolCalls = parseJson(attrs['ai.response.toolCalls']);
    if (modelCall && (text !== undefined || toolCalls !== undefined)) {
      const message: Dict = { role: 'assistant', content: text ?? '' };
      if (Array.isArray(toolCalls) && toolCalls.length > 0) message['tool_calls'] = toolCalls;
      out[ObsAttributes.OBSERVATION_OUTPUT] = json(message);
    } else setIfDefined(out, ObsAttributes.OBSERVATION_OUTPUT, text);
  }
  writeMissing(attrs, out);
}

/** `{ role, parts: [{ type: 'text', content }, { type: 'tool_call', ... }] }` as `{ role, content, tool_calls }`. */
function semconvMessage(m: unknown): unknown {
  if (!isDict(m) || !Array.isArray(m['parts'])) return m;
  const out: Dict = { role: m['role'] };
  const texts: string[] = [];
  const toolCalls: Dict[] = [];
  const other: unknown[] = [];
  for (const part of m['parts']) {
    if (!isDict(part)) continue;
    if (part['type'] === 'text' && typeof part['content'] === 'string') texts.push(part['content']);
    else if (part['type'] === 'tool_call') toolCalls.push({ id: part['id'], name: part['name'], args: part['arguments'] });
    else if (part['type'] === 'tool_call_response') (out['tool_call_id'] = part['id']), (out['content'] = part['response']);
    else other.push(part);
  }
  if (out['content'] === undefined)
    out['content'] = other.length > 0 ? [...texts.map((text) => ({ type: 'text', text })), ...other] : texts.join('');
  if (toolCalls.length > 0) out['tool_calls'] = toolCalls;
  return out;
}

/** An AI SDK prompt message (`content` a string or parts) as `{ role, content, tool_calls }`. */
function aiSdkMessage(m: unknown): unknown {
  if (!isDict(m) || !Array.isArray(m['content'])) return m;
  const parts = m['content'] as unknown[];
  if (parts.every((p) => isDict(p) && p['type'] === 'text'))
    return { role: m['role'], content: parts.map((p) => (p as Dict)['text']).join('') };
  const toolCalls = parts.filter((p) => isDict(p) && p['type'] === 'tool-call') as Dict[];
  const rest = parts.filter((p) => !(isDict(p) && p['type'] === 'tool-call'));
  const out: Dict = { role: m['role'], content: rest };
  if (toolCalls.length > 0)
    out['tool_calls'] = toolCalls.map((c) => ({ id: c['toolCallId'], name: c['toolName'], args: c['input'] ?? c['args'] }));
  return out;
}

function usageOf(input: unknown, output: unknown, total: unknown): Record<string, number> | undefined {
  const usage: Record<string, number> = {};
  if (typeof input === 'number') usage['input'] = input;
  if (typeof output === 'number') usage['output'] = output;
  if (typeof total === 'number') usage['total'] = total;
  else if (usage['input'] !== undefined && usage['output'] !== undefined) usage['total'] = usage['input'] + usage['output'];
  return Object.keys(usage).length > 0 ? usage : undefined;
}

function writeMissing(target: Attributes, values: Attributes): void {
  for (const key of Object.keys(values)) if (target[key] === undefined && values[key] !== undefined) target[key] = values[key];
}

function setIfDefined(out: Attributes, key: string, value: AttributeValue | undefined): void {
  if (value !== undefined) out[key] = typeof value === 'string' ? value : json(value);
}

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function json(value: unknown): string {
  return JSON.stringify(value);
}

function isDict(v: unknown): v is Dict {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Spans that follow OpenInference's conventions (`openinference.span.kind`: Arize's
 * `@arizeai/openinference-instrumentation-openai`, `-anthropic`, `-bedrock`, `-langchain`, `-mcp`,
 * `-openai-agents`, ... and any tracer writing them) as obs observations: an `LLM` span a
 * generation with its model, invocation parameters, input messages (system prompt first, also
 * when it came as Anthropic's `system` parameter), output message and token counts in obs's
 * buckets; an `EMBEDDING` span an embedding with its texts; `TOOL`, `CHAIN`, `AGENT`,
 * `RETRIEVER` (and `RERANKER`), `EVALUATOR`, `GUARDRAIL` their obs types with `input.value` and
 * `output.value`, a retriever's documents as its output. OpenInference writes lists as flattened
 * attributes (`llm.input_messages.0.message.contents.1.message_content.text`), unflattened here.
 * It records no first-token time, so its streamed generations have no `completion_start_time`.
 */
import type { Attributes, AttributeValue } from '@opentelemetry/api';
import type { ReadableSpan } from '../tracing/sdk-types.js';
import { ObsAttributes, type ObservationType } from '../tracing/attributes.js';
import { type Dict, isDict } from '../util/guards.js';
import { type LlmMessage, MessageParts, parseJson, parseJsonValue, systemMessages, toolCall } from './messages.js';
import { GENAI_PARAMETER_NAMES, modelParameters, ObsReading } from './span-reading.js';
import { usageDetails } from './usage.js';

/** obs types of `openinference.span.kind` values. */
const KINDS: Record<string, ObservationType> = {
  LLM: 'generation',
  EMBEDDING: 'embedding',
  TOOL: 'tool',
  CHAIN: 'chain',
  AGENT: 'agent',
  RETRIEVER: 'retriever',
  RERANKER: 'retriever',
  EVALUATOR: 'evaluator',
  GUARDRAIL: 'guardrail',
};

/** Invocation parameters that are the call's content or plumbing, not model parameters. */
const NOT_PARAMETERS = new Set(['model', 'modelId', 'messages', 'system', 'tools', 'stream', 'stream_options', 'input', 'prompt']);

/** Reads an OpenInference span; `undefined` for span kinds obs has no reading of. */
export function readOpenInferenceSpan(span: ReadableSpan, kind: string): ObsReading | undefined {
  const type = KINDS[kind.toUpperCase()];
  if (!type) return undefined;
  const attrs = span.attributes;
  const out = new ObsReading(span, type);
  if (type === 'generation') {
    const params = parseJson(attrs['llm.invocation_parameters']);
    out.set(ObsAttributes.OBSERVATION_INPUT, inputMessages(attrs, params) ?? ioValue(attrs, 'input'));
    out.set(ObsAttributes.OBSERVATION_OUTPUT, outputMessages(attrs) ?? ioValue(attrs, 'output'));
    out.set(
      ObsAttributes.OBSERVATION_MODEL,
      attrs['llm.response.model_name'] ?? attrs['llm.model_name'] ?? attrs['llm.request.model_name'],
    );
    out.set(ObsAttributes.OBSERVATION_MODEL_PARAMETERS, parameters(params));
    out.set(ObsAttributes.OBSERVATION_USAGE_DETAILS, usage(attrs));
  } else if (type === 'embedding') {
    const texts = listOf(unflatten(attrs, 'embedding.embeddings')).map((e) =>
      isDict(e['embedding']) ? e['embedding']['text'] : undefined,
    );
    out.set(ObsAttributes.OBSERVATION_INPUT, ioValue(attrs, 'input') ?? (texts.length > 0 ? texts : undefined));
    out.set(ObsAttributes.OBSERVATION_MODEL, attrs['embedding.model_name'] ?? attrs['llm.model_name']);
    out.set(ObsAttributes.OBSERVATION_USAGE_DETAILS, usage(attrs));
  } else {
    out.set(ObsAttributes.OBSERVATION_INPUT, ioValue(attrs, 'input'));
    const documents = type === 'retriever' ? retrievedDocuments(attrs) : undefined;
    out.set(ObsAttributes.OBSERVATION_OUTPUT, documents ?? ioValue(attrs, 'output'));
  }
  return out;
}

/** `input.value` / `output.value`, parsed when its mime type says JSON. */
function ioValue(attrs: Attributes, side: 'input' | 'output'): unknown {
  const value = attrs[`${side}.value`];
  return attrs[`${side}.mime_type`] === 'application/json' ? parseJson(value) : value;
}

/**
 * The attributes under `prefix.` as one nested object: `prefix.0.message.role` becomes
 * `{ 0: { message: { role } } }`; `undefined` when there are none.
 */
function unflatten(attrs: Attributes, prefix: string): Dict | undefined {
  let root: Dict | undefined;
  const head = `${prefix}.`;
  for (const key in attrs) {
    if (!key.startsWith(head)) continue;
    const path = key.slice(head.length).split('.');
    const last = path.pop()!;
    // Null-prototype nodes: a segment named like an Object.prototype member is just a key.
    let node: Dict | undefined = (root ??= Object.create(null) as Dict);
    for (const segment of path) {
      const next: unknown = node[segment];
      if (next === undefined) node = node[segment] = Object.create(null) as Dict;
      else if (isDict(next)) node = next;
      else {
        node = undefined;
        break;
      }
    }
    if (node && !isDict(node[last])) node[last] = attrs[key];
  }
  return root;
}

/** The entries of an unflattened list (`{ 0: ..., 1: ... }`) in index order. */
function listOf(node: unknown): Dict[] {
  if (!isDict(node)) return [];
  return Object.keys(node)
    .filter((k) => /^\d+$/.test(k))
    .sort((a, b) => Number(a) - Number(b))
    .map((k) => node[k])
    .filter(isDict);
}

/** The input messages, with a `system` invocation parameter (Anthropic) as the first message. */
function inputMessages(attrs: Attributes, params: unknown): unknown[] | undefined {
  const messages = listOf(unflatten(attrs, 'llm.input_messages')).map(openInferenceMessage);
  const system = isDict(params) ? params['system'] : undefined;
  const out = messages.some((m) => m.role === 'system') || system === undefined ? messages : [...systemPrompt(system), ...messages];
  return out.length > 0 ? out : undefined;
}

/** The output message (a list when the model returned several). */
function outputMessages(attrs: Attributes): unknown {
  const messages = listOf(unflatten(attrs, 'llm.output_messages')).map(openInferenceMessage);
  if (messages.length === 0) return undefined;
  return messages.length === 1 ? messages[0] : messages;
}

/** Anthropic's `system`: a string or text blocks (`{ type: 'text', text }`). */
function systemPrompt(system: unknown): LlmMessage[] {
  if (!Array.isArray(system)) return systemMessages(system);
  return systemMessages(system.map((b) => (isDict(b) && typeof b['text'] === 'string' ? { content: b['text'] } : b)));
}

/** One `{ message: { role, content, contents, tool_calls, tool_call_id } }` entry as an obs message. */
function openInferenceMessage(entry: Dict): LlmMessage {
  const m = isDict(entry['message']) ? entry['message'] : entry;
  const sorted = new MessageParts();
  for (const item of listOf(m['contents'])) {
    const part = isDict(item['message_content']) ? item['message_content'] : item;
    const type = part['type'];
    if (type === 'text' && typeof part['text'] === 'string') sorted.texts.push(part['text']);
    else if (type === 'reasoning') {
      if (typeof part['text'] === 'string') sorted.reasoning.push(part['text']);
    } else if (type === 'image') sorted.other.push(imagePart(part['image']));
    else if (type !== 'tool_use') sorted.other.push(part); // tool_use blocks come again as tool_calls
  }
  const content = m['content'];
  if (sorted.texts.length === 0 && typeof content === 'string' && m['tool_call_id'] === undefined) sorted.texts.push(content);
  for (const item of listOf(m['tool_calls'])) {
    const call = isDict(item['tool_call']) ? item['tool_call'] : item;
    const fn = isDict(call['function']) ? call['function'] : {};
    sorted.toolCalls.push(toolCall(call['id'], fn['name'], fn['arguments']));
  }
  if (m['function_call_name'] !== undefined)
    sorted.toolCalls.push(toolCall(undefined, m['function_call_name'], m['function_call_arguments_json']));
  // A tool's result (OpenAI's `tool` message; Anthropic's `tool_result` block in a user message).
  if (m['tool_call_id'] !== undefined) return { role: 'tool', tool_call_id: m['tool_call_id'], content: parseJsonValue(content) };
  return sorted.message(m['role']);
}

/** An image part: its URL (a data URI is uploaded as media) in OpenAI's shape, else what was recorded. */
function imagePart(image: unknown): unknown {
  const url = isDict(image) && isDict(image['image']) ? image['image']['url'] : undefined;
  return typeof url === 'string' ? { type: 'image_url', image_url: { url } } : { type: 'image', ...(isDict(image) ? image : {}) };
}

function parameters(params: unknown): Record<string, unknown> | undefined {
  if (!isDict(params)) return undefined;
  const pairs = Object.entries(params).filter(([key]) => !NOT_PARAMETERS.has(key));
  return modelParameters(pairs, GENAI_PARAMETER_NAMES);
}

/**
 * `llm.token_count.prompt` counts cached and audio input too (OpenInference's `prompt_details`
 * are parts of it), `completion` its reasoning and audio.
 */
function usage(attrs: Attributes): Record<string, number> | undefined {
  const n = (key: string): AttributeValue | undefined => attrs[`llm.token_count.${key}`];
  return usageDetails({
    input: n('prompt'),
    output: n('completion'),
    total: n('total'),
    inputParts: {
      cache_read: n('prompt_details.cache_read'),
      cache_write: n('prompt_details.cache_write'),
      audio: n('prompt_details.audio'),
    },
    outputParts: { reasoning: n('completion_details.reasoning'), audio: n('completion_details.audio') },
  });
}

/** `retrieval.documents.N.document.{id, content, score, metadata}` as a list of documents. */
function retrievedDocuments(attrs: Attributes): unknown[] | undefined {
  const documents = listOf(unflatten(attrs, 'retrieval.documents')).map((entry) => {
    const doc = isDict(entry['document']) ? { ...entry['document'] } : entry;
    if (typeof doc['metadata'] === 'string') doc['metadata'] = parseJsonValue(doc['metadata']);
    return doc;
  });
  return documents.length > 0 ? documents : undefined;
}

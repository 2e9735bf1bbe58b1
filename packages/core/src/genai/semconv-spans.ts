/**
 * Spans that follow OpenTelemetry's GenAI semantic conventions (`gen_ai.operation.name`: the AI
 * SDK 7 `OpenTelemetry` integration of `@ai-sdk/otel`, OpenTelemetry's OpenAI instrumentation,
 * SDKs that trace themselves, ...) as obs observations, as the conventions stand today (the
 * `semantic-conventions-genai` registry) and in their earlier forms: a model call a generation
 * with its system instructions first in its input, an agent with its final message, a step or
 * workflow a chain, a tool call a tool, a retrieval a retriever, and one embedding per
 * embeddings call (an embeddings span whose children are embeddings spans, the AI SDK's `embed`
 * around its model calls, is a chain).
 */
import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan } from '../tracing/sdk-types.js';
import { ObsAttributes, type ObservationType } from '../tracing/attributes.js';
import { parseJson, semconvMessages, systemMessages } from './messages.js';
import { completionStartAfter, modelParameters, ObsReading, parseJsonArray } from './span-reading.js';
import { usageDetails } from './usage.js';

/** Types of `gen_ai.operation.name` values. */
const OPERATION_TYPES: Record<string, ObservationType> = {
  chat: 'generation',
  text_completion: 'generation',
  generate_content: 'generation',
  embeddings: 'embedding',
  execute_tool: 'tool',
  invoke_agent: 'agent',
  create_agent: 'agent',
  agent_step: 'chain',
  invoke_workflow: 'chain',
  retrieval: 'retriever',
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
  'choice.count',
  'encoding_formats',
];

/**
 * Attributes only a model call that got its response carries. A call that ended with none of them
 * ended before the model finished (the AI SDK's cancelled stream); `gen_ai.output.messages` alone
 * would not do, as recording content is opt-in (an SDK's own spans leave it out by default).
 */
const RESPONSE_KEYS = ['gen_ai.response.finish_reasons', 'gen_ai.output.messages', 'gen_ai.response.id', 'gen_ai.usage.output_tokens'];

/** How many embeddings spans with embeddings children are remembered until they end. */
const MAX_EMBEDDING_PARENTS = 1024;

/** Span ids of embeddings spans that have embeddings children (ended first, as children do). */
const embeddingParents = new Set<string>();

/** Reads a `gen_ai.*` span; `undefined` for operations obs has no reading of. */
export function readSemconvSpan(span: ReadableSpan, operation: string): ObsReading | undefined {
  let type = OPERATION_TYPES[operation];
  if (!type) return undefined;
  if (type === 'embedding' && isEmbeddingParent(span)) type = 'chain';
  const attrs = span.attributes;
  const out = new ObsReading(span, type);
  if (type === 'generation' || type === 'agent') {
    out.set(ObsAttributes.OBSERVATION_INPUT, inputMessages(attrs));
    out.set(ObsAttributes.OBSERVATION_OUTPUT, outputMessage(attrs));
  }
  if (type === 'generation' || type === 'embedding') {
    out.set(ObsAttributes.OBSERVATION_MODEL, attrs['gen_ai.response.model'] ?? attrs['gen_ai.request.model']);
    const params = REQUEST_PARAMETERS.map((key) => [key, attrs[`gen_ai.request.${key}`]] as const);
    out.set(ObsAttributes.OBSERVATION_MODEL_PARAMETERS, modelParameters(params));
    out.set(ObsAttributes.OBSERVATION_USAGE_DETAILS, usage(attrs));
    const firstChunk = attrs['gen_ai.response.time_to_first_chunk'] ?? attrs['gen_ai.client.operation.time_to_first_chunk'];
    completionStartAfter(span, typeof firstChunk === 'number' ? firstChunk * 1000 : undefined, out);
  }
  if (type === 'embedding' || type === 'chain')
    out.set(ObsAttributes.OBSERVATION_INPUT, parseJsonArray(attrs['ai.values'] ?? attrs['ai.value']));
  if (type === 'tool') {
    out.set(ObsAttributes.OBSERVATION_INPUT, parseJson(attrs['gen_ai.tool.call.arguments']));
    out.set(ObsAttributes.OBSERVATION_OUTPUT, parseJson(attrs['gen_ai.tool.call.result']));
  }
  if (type === 'retriever') {
    out.set(ObsAttributes.OBSERVATION_INPUT, attrs['gen_ai.retrieval.query.text']);
    out.set(ObsAttributes.OBSERVATION_OUTPUT, parseJson(attrs['gen_ai.retrieval.documents']));
  }
  out.endModelCall(
    span,
    RESPONSE_KEYS.some((key) => attrs[key] !== undefined),
  );
  return out;
}

/** Remembers this span's parent when both are embeddings spans; tells whether this one is such a parent. */
function isEmbeddingParent(span: ReadableSpan): boolean {
  const own = span.spanContext().spanId;
  const isParent = embeddingParents.delete(own);
  const parent = span.parentSpanContext?.spanId;
  if (parent) {
    if (embeddingParents.size >= MAX_EMBEDDING_PARENTS) embeddingParents.delete(embeddingParents.values().next().value as string);
    embeddingParents.add(parent);
  }
  return isParent;
}

/** System instructions first, then the messages. */
function inputMessages(attrs: Attributes): unknown {
  const messages = parseJson(attrs['gen_ai.input.messages']);
  const system = systemMessages(parseJson(attrs['gen_ai.system_instructions']));
  if (messages === undefined) return system.length > 0 ? system : undefined;
  return [...system, ...semconvMessages(messages)];
}

/** The final message (a list when the model returned several choices). */
function outputMessage(attrs: Attributes): unknown {
  const output = parseJson(attrs['gen_ai.output.messages']);
  if (output === undefined) return undefined;
  const messages = semconvMessages(output);
  return messages.length === 1 ? messages[0] : messages;
}

/**
 * `gen_ai.usage.input_tokens` counts cached input and every modality too (semantic conventions;
 * the AI SDK reports its input total), so cache reads and writes and audio, image and video input
 * are parts of it (cache writes also as `cache_write.input_tokens`, as `@anthropic-ai/sdk` names
 * them); reasoning (`gen_ai.usage.reasoning.output_tokens`, or the AI SDK's supplemental
 * `ai.usage.outputTokenDetails.reasoningTokens`) and audio are parts of the output. Text-modality
 * counts are what remains, so they are not read. The earlier `prompt_tokens`/`completion_tokens`
 * names are read when the current ones are absent.
 */
function usage(attrs: Attributes): Record<string, number> | undefined {
  return usageDetails({
    input: attrs['gen_ai.usage.input_tokens'] ?? attrs['gen_ai.usage.prompt_tokens'],
    output: attrs['gen_ai.usage.output_tokens'] ?? attrs['gen_ai.usage.completion_tokens'],
    total: attrs['gen_ai.usage.total_tokens'],
    inputParts: {
      cache_read: attrs['gen_ai.usage.cache_read.input_tokens'],
      cache_write: attrs['gen_ai.usage.cache_creation.input_tokens'] ?? attrs['gen_ai.usage.cache_write.input_tokens'],
      audio: attrs['gen_ai.usage.audio.input_tokens'],
      image: attrs['gen_ai.usage.image.input_tokens'],
      video: attrs['gen_ai.usage.video.input_tokens'],
    },
    outputParts: {
      reasoning: attrs['gen_ai.usage.reasoning.output_tokens'] ?? attrs['ai.usage.outputTokenDetails.reasoningTokens'],
      audio: attrs['gen_ai.usage.audio.output_tokens'],
    },
  });
}

/**
 * Spans that follow OpenTelemetry's GenAI semantic conventions (`gen_ai.operation.name`: the AI
 * SDK 7 `OpenTelemetry` integration of `@ai-sdk/otel`, OpenTelemetry's OpenAI instrumentation,
 * ...) as obs observations: a model call a generation with its system instructions first in
 * its input, an agent with its final message, a step a chain, a tool call a tool, and one
 * embedding per embeddings call (an embeddings span whose children are embeddings spans, the
 * AI SDK's `embed` around its model calls, is a chain).
 */
import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan } from '../tracing/sdk-types.js';
import { ObsAttributes, type ObservationType } from '../tracing/attributes.js';
import { semconvMessages, systemMessages } from './messages.js';
import { completionStartAfter, markUnfinished, ObsReading, parseJson, parseJsonArray, readError } from './span-reading.js';
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
  const out = new ObsReading();
  out.set(ObsAttributes.OBSERVATION_TYPE, type);
  const failed = readError(span, out);
  if (type === 'generation' || type === 'agent') {
    out.set(ObsAttributes.OBSERVATION_INPUT, inputMessages(attrs));
    out.set(ObsAttributes.OBSERVATION_OUTPUT, outputMessage(attrs));
    const unfinished = attrs['gen_ai.response.finish_reasons'] === undefined && attrs['gen_ai.output.messages'] === undefined;
    if (!failed && unfinished) markUnfinished(out);
  }
  if (type === 'generation' || type === 'embedding') {
    out.set(ObsAttributes.OBSERVATION_MODEL, attrs['gen_ai.response.model'] ?? attrs['gen_ai.request.model']);
    out.set(ObsAttributes.OBSERVATION_MODEL_PARAMETERS, parameters(attrs));
    out.set(ObsAttributes.OBSERVATION_USAGE_DETAILS, usage(attrs));
    completionStartAfter(span, secondsToMs(attrs['gen_ai.client.operation.time_to_first_chunk']), out);
  }
  if (type === 'embedding' || type === 'chain')
    out.set(ObsAttributes.OBSERVATION_INPUT, parseJsonArray(attrs['ai.values'] ?? attrs['ai.value']));
  if (type === 'tool') {
    out.set(ObsAttributes.OBSERVATION_INPUT, parseJson(attrs['gen_ai.tool.call.arguments']));
    out.set(ObsAttributes.OBSERVATION_OUTPUT, parseJson(attrs['gen_ai.tool.call.result']));
  }
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

function parameters(attrs: Attributes): Record<string, unknown> | undefined {
  const params: Record<string, unknown> = {};
  let any = false;
  for (const key of REQUEST_PARAMETERS) {
    const v = attrs[`gen_ai.request.${key}`];
    if (v === undefined) continue;
    params[key] = v;
    any = true;
  }
  return any ? params : undefined;
}

/**
 * `gen_ai.usage.input_tokens` counts cached input too (semantic conventions; the AI SDK reports
 * its input total); reasoning comes as `gen_ai.usage.reasoning.output_tokens`, or the AI SDK's
 * supplemental `ai.usage.outputTokenDetails.reasoningTokens`.
 */
function usage(attrs: Attributes): Record<string, number> | undefined {
  return usageDetails({
    input: attrs['gen_ai.usage.input_tokens'],
    output: attrs['gen_ai.usage.output_tokens'],
    total: attrs['gen_ai.usage.total_tokens'],
    inputParts: {
      cache_read: attrs['gen_ai.usage.cache_read.input_tokens'],
      cache_write: attrs['gen_ai.usage.cache_creation.input_tokens'],
    },
    outputParts: {
      reasoning: attrs['gen_ai.usage.reasoning.output_tokens'] ?? attrs['ai.usage.outputTokenDetails.reasoningTokens'],
    },
  });
}

function secondsToMs(v: unknown): number | undefined {
  return typeof v === 'number' ? v * 1000 : undefined;
}

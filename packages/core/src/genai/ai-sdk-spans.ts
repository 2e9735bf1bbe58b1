/**
 * Spans with the Vercel AI SDK's own attributes (`ai.operationId`, `ai.*`: AI SDK 4-6 and the
 * `LegacyOpenTelemetry` integration of AI SDK 7) as obs observations: the model call
 * (`*.doGenerate`, `*.doStream`) a generation, the call around it (`ai.generateText`, ...) an
 * agent with the final answer, `ai.toolCall` a tool, `*.doEmbed` an embedding under a chain.
 */
import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan } from '../tracing/sdk-types.js';
import { ObsAttributes, type ObservationType } from '../tracing/attributes.js';
import { aiSdkMessages, aiSdkPrompt, aiSdkToolCalls, assistantMessage, parseJson } from './messages.js';
import {
  completionStartAfter,
  completionStartAt,
  GENAI_PARAMETER_NAMES,
  modelParameters,
  ObsReading,
  parseJsonArray,
} from './span-reading.js';
import { usageDetails } from './usage.js';

/** The AI SDK's call settings under the names GenAI semantic conventions give them. */
const SETTING_NAMES: Record<string, string> = {
  ...GENAI_PARAMETER_NAMES,
  maxOutputTokens: 'max_tokens',
  frequencyPenalty: 'frequency_penalty',
  presencePenalty: 'presence_penalty',
};

/** Calls that run the model (and tools) for the caller: read as agents. */
const CALLS = new Set(['ai.generateText', 'ai.streamText', 'ai.generateObject', 'ai.streamObject']);

/** Reads an `ai.*` span; returns the obs attributes to write. */
export function readAiSdkSpan(span: ReadableSpan, operationId: string): ObsReading {
  const attrs = span.attributes;
  const type = typeOf(operationId);
  const out = new ObsReading(span, type);
  if (type === 'generation') {
    const messages = parseJson(attrs['ai.prompt.messages']);
    if (messages !== undefined) out.set(ObsAttributes.OBSERVATION_INPUT, aiSdkMessages(messages));
    out.set(ObsAttributes.OBSERVATION_MODEL, attrs['ai.response.model'] ?? attrs['ai.model.id']);
    out.set(ObsAttributes.OBSERVATION_MODEL_PARAMETERS, settings(attrs));
    out.set(ObsAttributes.OBSERVATION_USAGE_DETAILS, usage(attrs));
    out.set(ObsAttributes.OBSERVATION_OUTPUT, answer(attrs));
    completionStart(span, out);
  } else if (type === 'agent') {
    out.set(ObsAttributes.OBSERVATION_INPUT, aiSdkPrompt(parseJson(attrs['ai.prompt'])));
    out.set(ObsAttributes.OBSERVATION_OUTPUT, answer(attrs));
  } else if (type === 'tool') {
    out.set(ObsAttributes.OBSERVATION_INPUT, parseJson(attrs['ai.toolCall.args'] ?? attrs['ai.toolCall.input']));
    out.set(ObsAttributes.OBSERVATION_OUTPUT, parseJson(attrs['ai.toolCall.result'] ?? attrs['ai.toolCall.output']));
  } else if (type === 'embedding') {
    out.set(ObsAttributes.OBSERVATION_INPUT, parseJsonArray(attrs['ai.values']));
    out.set(ObsAttributes.OBSERVATION_MODEL, attrs['ai.model.id']);
    out.set(ObsAttributes.OBSERVATION_USAGE_DETAILS, usageDetails({ input: attrs['ai.usage.tokens'] }));
  } else if (type === 'chain') {
    out.set(ObsAttributes.OBSERVATION_INPUT, parseJsonArray(attrs['ai.values'] ?? attrs['ai.value']));
  }
  out.endModelCall(span, attrs['ai.response.finishReason'] !== undefined);
  return out;
}

/**
 * Time to first chunk as the call reported it (`ai.response.msToFirstChunk`, on the span or its
 * `ai.stream.firstChunk` event), from the span's start; the event's own time only when it carries
 * no figure. AI SDK 7's `LegacyOpenTelemetry` adds that event when the stream ends, so its time is
 * the end, not the first chunk.
 */
function completionStart(span: ReadableSpan, out: ObsReading): void {
  const attrs = span.attributes;
  const event = span.events?.find((e) => e.name === 'ai.stream.firstChunk');
  const ms =
    attrs['ai.response.msToFirstChunk'] ??
    attrs['ai.stream.msToFirstChunk'] ??
    event?.attributes?.['ai.response.msToFirstChunk'] ??
    event?.attributes?.['ai.stream.msToFirstChunk'];
  if (typeof ms === 'number') completionStartAfter(span, ms, out);
  else if (event) completionStartAt(event.time, out);
}

function typeOf(operationId: string): ObservationType {
  if (operationId.endsWith('.doGenerate') || operationId.endsWith('.doStream')) return 'generation';
  if (operationId === 'ai.toolCall') return 'tool';
  if (operationId.endsWith('.doEmbed')) return 'embedding';
  if (operationId === 'ai.embed' || operationId === 'ai.embedMany') return 'chain';
  if (CALLS.has(operationId)) return 'agent';
  return 'span';
}

/** The final message: text (or the generated object) and the tool calls the call reported. */
function answer(attrs: Attributes): unknown {
  const text = attrs['ai.response.text'] ?? attrs['ai.response.object'];
  const toolCalls = aiSdkToolCalls(parseJson(attrs['ai.response.toolCalls']));
  if (text === undefined && toolCalls.length === 0) return undefined;
  return assistantMessage(text, toolCalls, attrs['ai.response.reasoning']);
}

function settings(attrs: Attributes): Record<string, unknown> | undefined {
  const keys = Object.keys(attrs).filter((key) => key.startsWith('ai.settings.') && key !== 'ai.settings.maxRetries');
  const pairs = keys.map((key) => [key.slice('ai.settings.'.length), attrs[key]] as const);
  return modelParameters(pairs, SETTING_NAMES);
}

/**
 * AI SDK 6+ reports input/output token details (`ai.usage.inputTokenDetails.*`); AI SDK 5 the
 * flat `ai.usage.cachedInputTokens` and `ai.usage.reasoningTokens`; AI SDK 4 prompt/completion
 * tokens. Its input and output totals include those parts.
 */
function usage(attrs: Attributes): Record<string, number> | undefined {
  return usageDetails({
    input: attrs['ai.usage.inputTokens'] ?? attrs['ai.usage.promptTokens'],
    output: attrs['ai.usage.outputTokens'] ?? attrs['ai.usage.completionTokens'],
    total: attrs['ai.usage.totalTokens'],
    inputParts: {
      cache_read: attrs['ai.usage.inputTokenDetails.cacheReadTokens'] ?? attrs['ai.usage.cachedInputTokens'],
      cache_write: attrs['ai.usage.inputTokenDetails.cacheWriteTokens'],
    },
    outputParts: { reasoning: attrs['ai.usage.outputTokenDetails.reasoningTokens'] ?? attrs['ai.usage.reasoningTokens'] },
  });
}

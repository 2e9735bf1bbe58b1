/**
 * Spans of LLM libraries read as obs observations when they end: the AI SDK's own `ai.*`
 * attributes (`genai/ai-sdk-spans.ts`), OpenTelemetry's GenAI conventions
 * (`genai/semconv-spans.ts`) or OpenInference's (`genai/openinference-spans.ts`), in that order
 * when a span carries more than one. Attributes the span already carries (set through obs) are never
 * overwritten; a span that is an obs observation already is left alone.
 */
import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan } from '../../tracing/sdk-types.js';
import { ObsAttributes } from '../../tracing/attributes.js';
import { readAiSdkSpan } from '../../genai/ai-sdk-spans.js';
import { readOpenInferenceSpan } from '../../genai/openinference-spans.js';
import { readSemconvSpan } from '../../genai/semconv-spans.js';

/** Maps a GenAI or AI SDK span's attributes onto obs observation attributes, in place. */
export function applyGenAiAttributes(span: ReadableSpan): void {
  const attrs = span.attributes as Attributes;
  if (attrs[ObsAttributes.OBSERVATION_TYPE] !== undefined) return; // an obs observation, or mapped already
  const operationId = attrs['ai.operationId'];
  if (typeof operationId === 'string') return readAiSdkSpan(span, operationId).writeTo(attrs);
  const operation = attrs['gen_ai.operation.name'];
  const kind = attrs['openinference.span.kind'];
  const reading =
    (typeof operation === 'string' ? readSemconvSpan(span, operation) : undefined) ??
    (typeof kind === 'string' ? readOpenInferenceSpan(span, kind) : undefined);
  reading?.writeTo(attrs);
}

/**
 * What each kind of Mastra span becomes in obs. An agent run is an `agent`; each model step (one
 * call of the model) a `generation` with its messages and usage, the step's inference span (the
 * provider call inside it) folded into it (model, parameters, completion start); the model
 * generation around the steps a `span`; tool calls `tool`s; a workflow run a `chain` and its steps
 * `span`s; a scorer run an `evaluator`. Streaming chunks add nothing.
 */
import type { ObservationType, ObsObservationAttributes } from '@obs/core';
import { dict, type Dict, isDict, type LlmToolCall, nonEmptyString, toolCall, usageDetails } from '@obs/core/kit';

/** Span kinds that are no observation of their own; `inference` writes onto its step. */
export const FOLDED = new Set(['model_chunk', 'model_inference']);

const TYPES: Record<string, ObservationType> = {
  agent_run: 'agent',
  model_step: 'generation',
  tool_call: 'tool',
  mcp_tool_call: 'tool',
  client_tool_call: 'tool',
  provider_tool_call: 'tool',
  workflow_run: 'chain',
  scorer_run: 'evaluator',
};

/** The obs type of a Mastra span type; `span` for the rest (generic, workflow steps, processors, ...). */
export function observationType(spanType: unknown, isEvent: boolean): ObservationType {
  if (isEvent) return 'event';
  return (typeof spanType === 'string' ? TYPES[spanType] : undefined) ?? 'span';
}

/** What a span says (at its start, and again when it ended). */
export function spanAttributes(span: Dict): ObsObservationAttributes {
  const attrs = dict(span['attributes']);
  const out: ObsObservationAttributes = {};
  if (span['input'] !== undefined) out.input = span['input'];
  if (span['output'] !== undefined) out.output = span['output'];
  const metadata = { ...dict(span['metadata']), ...entity(span) };
  if (Object.keys(metadata).length > 0) out.metadata = metadata;
  const error = span['errorInfo'];
  if (isDict(error)) {
    out.level = 'ERROR';
    out.statusMessage = typeof error['message'] === 'string' ? error['message'] : 'error';
  }
  switch (span['type']) {
    case 'model_step':
      if (isDict(span['output'])) out.output = assistantMessage(span['output']);
      out.usageDetails = mastraUsage(attrs['usage']);
      break;
    case 'model_generation':
      out.model = nonEmptyString(attrs['responseModel']) ?? nonEmptyString(attrs['model']);
      break;
    case 'agent_run':
      if (isDict(span['output']) && typeof span['output']['text'] === 'string') out.output = span['output']['text'];
      break;
    case 'tool_call':
    case 'mcp_tool_call':
      if (attrs['success'] === false && !out.level) out.level = 'ERROR';
      break;
  }
  return out;
}

/** What a step's inference span adds to the step's generation. */
export function inferenceAttributes(span: Dict): ObsObservationAttributes {
  const attrs = dict(span['attributes']);
  const parameters = Object.fromEntries(
    Object.entries(dict(attrs['parameters'])).filter(([k, v]) => v !== undefined && k !== 'abortSignal' && k !== 'headers'),
  );
  const out: ObsObservationAttributes = { model: nonEmptyString(attrs['responseModel']) ?? nonEmptyString(attrs['model']) };
  if (Object.keys(parameters).length > 0) out.modelParameters = parameters;
  if (attrs['completionStartTime'] !== undefined) out.completionStartTime = attrs['completionStartTime'] as Date;
  return out;
}

/**
 * The model a model generation asked for (its `model` attribute), or undefined for other spans.
 * Its steps start with it: Mastra before 1.33 has no inference span, and reports the response's
 * model only on the generation's end, after the steps ended.
 */
export function requestedModel(span: Dict): string | undefined {
  return span['type'] === 'model_generation' ? nonEmptyString(dict(span['attributes'])['model']) : undefined;
}

/** A step's output (`{ text, toolCalls, reasoningText }`) as one assistant message. */
function assistantMessage(output: Dict): Dict {
  const calls: LlmToolCall[] = Array.isArray(output['toolCalls'])
    ? output['toolCalls'].filter(isDict).map((c) => toolCall(c['toolCallId'], c['toolName'], c['args'] ?? c['input']))
    : [];
  const out: Dict = { role: 'assistant', content: typeof output['text'] === 'string' ? output['text'] : '' };
  if (calls.length > 0) out['tool_calls'] = calls;
  const reasoning = output['reasoningText'] ?? output['reasoning'];
  if (typeof reasoning === 'string' && reasoning !== '') out['reasoning'] = reasoning;
  return out;
}

/** Mastra's usage (totals with their parts in details) in obs's disjoint buckets. */
function mastraUsage(usage: unknown): Record<string, number> | undefined {
  if (!isDict(usage)) return undefined;
  const input = dict(usage['inputDetails']);
  const output = dict(usage['outputDetails']);
  return usageDetails({
    input: usage['inputTokens'],
    output: usage['outputTokens'],
    inputParts: { cache_read: input['cacheRead'], cache_write: input['cacheWrite'], audio: input['audio'], image: input['image'] },
    outputParts: { reasoning: output['reasoning'], audio: output['audio'], image: output['image'] },
  });
}

function entity(span: Dict): Dict {
  const out: Dict = {};
  for (const key of ['entityType', 'entityId', 'entityName'] as const) if (typeof span[key] === 'string') out[key] = span[key];
  return out;
}

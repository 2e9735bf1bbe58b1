/**
 * What the readings of LLM library spans (the AI SDK's `ai.*`, OTel GenAI `gen_ai.*`, OpenInference)
 * share: the obs attributes they write (never over ones the span already has), model parameters,
 * the level a failed or cut-off call gets, time-to-first-chunk as `completion_start_time`, and what
 * a cancelled stream delivered before its span ended.
 */
import { SpanStatusCode, type Attributes, type AttributeValue, type HrTime } from '@opentelemetry/api';
import type { ReadableSpan } from '../tracing/sdk-types.js';
import { ObsAttributes, type ObservationType } from '../tracing/attributes.js';
import type { Dict } from '../util/guards.js';
import { toAttributeString } from '../util/serialize.js';
import { streamProgress } from './ai-sdk-stream.js';
import { assistantMessage, parseJson } from './messages.js';

/** Status message of a model call or agent that ended before the model finished. */
export const UNFINISHED_MESSAGE = 'ended before the model finished (aborted or cancelled)';

/**
 * The obs attributes a reading produces, written onto the span at the end. It starts with the
 * span's type and, for a span whose status is ERROR, level ERROR and the status message.
 */
export class ObsReading {
  readonly values: Attributes = {};
  private readonly type: ObservationType;
  private readonly failed: boolean;

  constructor(span: ReadableSpan, type: ObservationType) {
    this.type = type;
    this.set(ObsAttributes.OBSERVATION_TYPE, type);
    this.failed = span.status?.code === SpanStatusCode.ERROR;
    if (!this.failed) return;
    this.set(ObsAttributes.OBSERVATION_LEVEL, 'ERROR');
    const exception = span.events?.find((e) => e.name === 'exception')?.attributes?.['exception.message'];
    // Without a message, the conventions' `error.type` (an error code or class name) says what failed.
    this.set(ObsAttributes.OBSERVATION_STATUS_MESSAGE, span.status.message || exception || span.attributes['error.type'] || 'error');
  }

  /**
   * The end of a model call or agent (other types have none): level WARNING when it ended before
   * the model finished and did not fail; for a model call, what obs saw of its stream.
   */
  endModelCall(span: ReadableSpan, modelFinished: boolean): void {
    if (this.type !== 'generation' && this.type !== 'agent') return;
    const unfinished = !this.failed && !modelFinished;
    if (unfinished) {
      this.set(ObsAttributes.OBSERVATION_LEVEL, 'WARNING');
      this.set(ObsAttributes.OBSERVATION_STATUS_MESSAGE, UNFINISHED_MESSAGE);
    }
    if (this.type === 'generation') readStreamProgress(span, unfinished, this);
  }

  set(key: string, value: unknown): void {
    const s = toAttributeString(value);
    if (s !== undefined) this.values[key] = s;
  }

  has(key: string): boolean {
    return this.values[key] !== undefined;
  }

  /** Writes every value the span does not carry yet: what obs or the user set stays. */
  writeTo(target: Attributes): void {
    for (const key in this.values) if (target[key] === undefined) target[key] = this.values[key];
  }
}

/** An array attribute of JSON texts (`ai.values`) as values. */
export function parseJsonArray(value: AttributeValue | undefined): unknown {
  return Array.isArray(value) ? value.map((v) => parseJson(v as AttributeValue)) : parseJson(value);
}

/** camelCase parameter names (the AI SDK's settings, Bedrock's `inferenceConfig`) as GenAI conventions spell them. */
export const GENAI_PARAMETER_NAMES: Record<string, string> = {
  maxTokens: 'max_tokens',
  topP: 'top_p',
  topK: 'top_k',
  stopSequences: 'stop_sequences',
};

/** Model parameters: `[name, value]` pairs, renamed by `names`, undefined values left out; undefined when none is left. */
export function modelParameters(pairs: Iterable<readonly [string, unknown]>, names?: Record<string, string>): Dict | undefined {
  let params: Dict | undefined;
  for (const [name, value] of pairs) {
    if (value === undefined) continue;
    // A span's own names: `constructor` is not `names`' inherited function, `__proto__` not the object's prototype.
    const key = names && Object.hasOwn(names, name) ? names[name]! : name;
    Object.defineProperty((params ??= {}), key, { value, enumerable: true, writable: true, configurable: true });
  }
  return params;
}

/**
 * `completion_start_time` `ms` after the span started, as ISO 8601, at the latest its end: the
 * instrumentation times its first chunk on its own clock, which can run a millisecond past the span's.
 */
export function completionStartAfter(span: ReadableSpan, ms: unknown, out: ObsReading): void {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return;
  const at = Math.min(hrTimeToMs(span.startTime) + ms, hrTimeToMs(span.endTime));
  out.set(ObsAttributes.OBSERVATION_COMPLETION_START_TIME, new Date(at).toISOString());
}

/** `completion_start_time` at an event's time. */
export function completionStartAt(time: HrTime, out: ObsReading): void {
  out.set(ObsAttributes.OBSERVATION_COMPLETION_START_TIME, new Date(hrTimeToMs(time)).toISOString());
}

/**
 * What obs saw of the model call's stream (`ai-sdk-stream.ts`): its first chunk as the completion
 * start when the span gave none, and, for a call that ended unfinished (a cancelled stream), the
 * text, reasoning and tool calls delivered so far as its output.
 */
function readStreamProgress(span: ReadableSpan, unfinished: boolean, out: ObsReading): void {
  const progress = streamProgress(span);
  if (!progress) return;
  if (progress.firstChunkAt !== undefined && !out.has(ObsAttributes.OBSERVATION_COMPLETION_START_TIME))
    out.set(ObsAttributes.OBSERVATION_COMPLETION_START_TIME, new Date(progress.firstChunkAt).toISOString());
  const delivered = progress.text !== '' || progress.reasoning !== '' || progress.toolCalls.length > 0;
  if (unfinished && delivered && !out.has(ObsAttributes.OBSERVATION_OUTPUT))
    out.set(ObsAttributes.OBSERVATION_OUTPUT, assistantMessage(progress.text, progress.toolCalls, progress.reasoning));
}

function hrTimeToMs(t: HrTime): number {
  return t[0] * 1000 + t[1] / 1e6;
}

import type { Attributes } from '@opentelemetry/api';
import { ObsAttributes, type ObservationLevel, type ObservationType } from './attributes.js';
import { flattenInto, objectSink, type AttributeSink } from '../util/flatten.js';
import { isObject } from '../util/guards.js';
import { type SerializeHooks, toAttributeString } from '../util/serialize.js';
import { captureBinaries } from './media-capture.js';

/** Attributes every observation type accepts. */
export interface ObsSpanAttributes {
  input?: unknown;
  output?: unknown;
  /** Any value; flattened by dotted path under `obs.observation.metadata`. */
  metadata?: unknown;
  level?: ObservationLevel;
  statusMessage?: string;
  version?: string;
  environment?: string;
}

/** Attributes of generations and embeddings (model calls). */
export interface ObsGenerationAttributes extends ObsSpanAttributes {
  model?: string;
  modelParameters?: Record<string, unknown>;
  /** Token counts, e.g. `{ input: 10, output: 4, total: 14, input_cache_read: 2 }`. */
  usageDetails?: Record<string, number>;
  costDetails?: Record<string, number>;
  completionStartTime?: Date | string | number;
  prompt?: { name: string; version: number; isFallback?: boolean };
}

/** Union of what `update()` takes on any observation. */
export type ObsObservationAttributes = ObsGenerationAttributes;

/**
 * Converts observation attributes to the span attributes of wire contract 2.1. Binary data in
 * input, output and metadata is kept on the returned object (`moveCapturedBinaries` hands it to
 * the span).
 */
export function toSpanAttributes(attrs: ObsObservationAttributes, type?: ObservationType): Attributes {
  const out: Attributes = {};
  writeSpanAttributes(attrs, objectSink(out), type, out);
  return out;
}

/**
 * `toSpanAttributes` written straight into `sink` (a span): no intermediate object whose keys
 * would be stored and read again with megamorphic lookups. Binary data in input, output and
 * metadata is kept on `binariesTo` (default: the sink) for the media upload.
 */
export function writeSpanAttributes(
  attrs: ObsObservationAttributes,
  sink: AttributeSink,
  type?: ObservationType,
  binariesTo: object = sink,
): void {
  if (type) sink.setAttribute(ObsAttributes.OBSERVATION_TYPE, type);
  if (!attrs) return;
  const { input, output, metadata } = attrs;
  // Only values that may hold binary data need the hooks (a string input never does).
  const hooks = isObject(input) || isObject(output) || isObject(metadata) ? captureBinaries(binariesTo) : undefined;
  setString(sink, ObsAttributes.OBSERVATION_INPUT, input, hooks);
  setString(sink, ObsAttributes.OBSERVATION_OUTPUT, output, hooks);
  if (metadata !== undefined && metadata !== null) flattenInto(ObsAttributes.OBSERVATION_METADATA, metadata, sink, hooks);
  if (attrs.level) sink.setAttribute(ObsAttributes.OBSERVATION_LEVEL, attrs.level);
  if (attrs.statusMessage !== undefined) sink.setAttribute(ObsAttributes.OBSERVATION_STATUS_MESSAGE, String(attrs.statusMessage));
  if (attrs.version) sink.setAttribute(ObsAttributes.VERSION, attrs.version);
  if (attrs.environment) sink.setAttribute(ObsAttributes.ENVIRONMENT, attrs.environment);
  if (attrs.model) sink.setAttribute(ObsAttributes.OBSERVATION_MODEL, attrs.model);
  setString(sink, ObsAttributes.OBSERVATION_MODEL_PARAMETERS, attrs.modelParameters);
  setString(sink, ObsAttributes.OBSERVATION_USAGE_DETAILS, attrs.usageDetails);
  setString(sink, ObsAttributes.OBSERVATION_COST_DETAILS, attrs.costDetails);
  if (attrs.completionStartTime !== undefined && attrs.completionStartTime !== null) {
    const d = attrs.completionStartTime instanceof Date ? attrs.completionStartTime : new Date(attrs.completionStartTime);
    if (!Number.isNaN(d.getTime())) sink.setAttribute(ObsAttributes.OBSERVATION_COMPLETION_START_TIME, d.toISOString());
  }
  if (attrs.prompt && typeof attrs.prompt.name === 'string' && !attrs.prompt.isFallback) {
    sink.setAttribute(ObsAttributes.OBSERVATION_PROMPT_NAME, attrs.prompt.name);
    if (Number.isInteger(attrs.prompt.version)) sink.setAttribute(ObsAttributes.OBSERVATION_PROMPT_VERSION, attrs.prompt.version);
  }
}

function setString(sink: AttributeSink, key: string, value: unknown, hooks?: SerializeHooks): void {
  const s = toAttributeString(value, hooks);
  if (s !== undefined) sink.setAttribute(key, s);
}

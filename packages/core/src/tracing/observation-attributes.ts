import type { Attributes } from '@opentelemetry/api';
import { ObsAttributes, type ObservationLevel, type ObservationType } from '../attributes.js';
import { flattenAttributes } from '../flatten.js';
import { toAttributeString } from '../serialize.js';

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

/** Converts observation attributes to the span attributes of wire contract 2.1. */
export function toSpanAttributes(attrs: ObsObservationAttributes, type?: ObservationType): Attributes {
  const out: Attributes = {};
  if (type) out[ObsAttributes.OBSERVATION_TYPE] = type;
  if (!attrs) return out;
  setString(out, ObsAttributes.OBSERVATION_INPUT, attrs.input);
  setString(out, ObsAttributes.OBSERVATION_OUTPUT, attrs.output);
  if (attrs.metadata !== undefined && attrs.metadata !== null) {
    flattenAttributes(ObsAttributes.OBSERVATION_METADATA, attrs.metadata, out);
  }
  if (attrs.level) out[ObsAttributes.OBSERVATION_LEVEL] = attrs.level;
  if (attrs.statusMessage !== undefined) out[ObsAttributes.OBSERVATION_STATUS_MESSAGE] = String(attrs.statusMessage);
  if (attrs.version) out[ObsAttributes.VERSION] = attrs.version;
  if (attrs.environment) out[ObsAttributes.ENVIRONMENT] = attrs.environment;
  if (attrs.model) out[ObsAttributes.OBSERVATION_MODEL] = attrs.model;
  setString(out, ObsAttributes.OBSERVATION_MODEL_PARAMETERS, attrs.modelParameters);
  setString(out, ObsAttributes.OBSERVATION_USAGE_DETAILS, attrs.usageDetails);
  setString(out, ObsAttributes.OBSERVATION_COST_DETAILS, attrs.costDetails);
  if (attrs.completionStartTime !== undefined && attrs.completionStartTime !== null) {
    const d = attrs.completionStartTime instanceof Date ? attrs.completionStartTime : new Date(attrs.completionStartTime);
    if (!Number.isNaN(d.getTime())) out[ObsAttributes.OBSERVATION_COMPLETION_START_TIME] = d.toISOString();
  }
  if (attrs.prompt && typeof attrs.prompt.name === 'string' && !attrs.prompt.isFallback) {
    out[ObsAttributes.OBSERVATION_PROMPT_NAME] = attrs.prompt.name;
    if (Number.isInteger(attrs.prompt.version)) out[ObsAttributes.OBSERVATION_PROMPT_VERSION] = attrs.prompt.version;
  }
  return out;
}

function setString(out: Attributes, key: string, value: unknown): void {
  const s = toAttributeString(value);
  if (s !== undefined) out[key] = s;
}

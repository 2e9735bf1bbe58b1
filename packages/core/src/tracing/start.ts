import { context, trace, type Context, type SpanContext, type TimeInput } from '@opentelemetry/api';
import { ObsAttributes, OBSERVATION_TYPES, type ObservationType } from './attributes.js';
import { logger } from '../util/logger.js';
import { IN_OBS_TRACE_KEY } from './context-keys.js';
import { ObsObservation, provideChildStarter } from './observation.js';
import { recordErrorOnSpan } from './record-error.js';
import type { ObsObservationAttributes } from './observation-attributes.js';
import { safeName, safeOptions, safeSpanAttributes, setSpanAttributes } from './hostile-input.js';
import { moveCapturedBinaries } from './media-capture.js';
import { endWhenSettled } from './settle.js';
import type { StartActiveObservationOptions, StartObservationOptions } from './start-options.js';
import { getObsTracer } from './tracer.js';
import { layer, SPAN_KEY } from './layered-context.js';

/** What an active observation's context sets: the span, and that this is obs work. */
const OBSERVATION_KEYS = [SPAN_KEY, IN_OBS_TRACE_KEY] as const;

export type { StartObservationOptions, StartActiveObservationOptions } from './start-options.js';

/** Starts an observation (not made active); call `end()` on it. */
export function startObservation(
  name: string,
  attributes?: ObsObservationAttributes,
  rawOptions?: StartObservationOptions,
): ObsObservation {
  const options = safeOptions(rawOptions, 'startObservation options');
  const type = normaliseType(options?.asType);
  const parent = parentContext(options?.parentSpanContext, options?.parentContext);
  // The tracer first: the first obs span may start obs, whose export says how values keep their media.
  const tracer = getObsTracer();
  const startAttributes = safeSpanAttributes(attributes, type);
  const span = tracer.startSpan(safeName(name), { startTime: options?.startTime, attributes: startAttributes }, parent);
  // Binary data of the input, output and metadata goes with the span to the media upload.
  moveCapturedBinaries(startAttributes, span);
  const obs = new ObsObservation(span, type);
  // An event is a point in time: it ends at its own start time.
  if (type === 'event') obs.end(options?.startTime ?? (span as { startTime?: TimeInput }).startTime);
  return obs;
}

provideChildStarter(startObservation);

/**
 * Runs `fn` with a new observation as the active span, so everything started inside nests
 * under it. Ends it when `fn` returns or its Promise settles (unless `endOnExit: false`);
 * an error is recorded (level ERROR, status, exception event) and rethrown unchanged.
 */
export function startActiveObservation<T>(
  name: string,
  fn: (observation: ObsObservation) => T,
  rawOptions?: StartActiveObservationOptions,
): T {
  const options = safeOptions(rawOptions, 'startActiveObservation options');
  const obs = startObservation(name, undefined, options);
  const ctx = activeContextFor(obs, parentContext(options?.parentSpanContext, options?.parentContext));
  const endOnExit = options?.endOnExit !== false;
  let result: T;
  try {
    result = context.with(ctx, fn, undefined, obs);
  } catch (err) {
    recordErrorOnSpan(obs.otelSpan, err);
    obs.end();
    throw err;
  }
  return endOnExit ? endWhenSettled(result, obs) : result;
}

/** Context in which `obs` is the active span and spans of any tracer count as obs spans. */
export function activeContextFor(obs: ObsObservation, parent: Context = context.active()): Context {
  return layer(parent, OBSERVATION_KEYS, [obs.otelSpan, obs.otelSpan.spanContext()]);
}

/** Updates the active observation (input, output, metadata, model fields, ...). */
export function updateActiveObservation(attributes: ObsObservationAttributes, options?: { asType?: ObservationType }): void {
  const span = trace.getActiveSpan();
  if (!span) {
    logger.debug('updateActiveObservation: no active observation');
    return;
  }
  try {
    setSpanAttributes(span, attributes, options?.asType ? normaliseType(options.asType) : undefined);
  } catch (err) {
    logger.warn(`updateActiveObservation ignored: ${String(err)}`);
  }
}

/** Makes the active trace viewable by anyone with its link. */
export function setActiveTraceAsPublic(): void {
  trace.getActiveSpan()?.setAttribute(ObsAttributes.TRACE_PUBLIC, true);
}

function parentContext(parentSpanContext: SpanContext | undefined, base: Context | undefined): Context {
  const ctx = base ?? context.active();
  return parentSpanContext ? trace.setSpanContext(ctx, parentSpanContext) : ctx;
}

function normaliseType(type: ObservationType | undefined): ObservationType {
  if (type === undefined) return 'span';
  if ((OBSERVATION_TYPES as readonly string[]).includes(type)) return type;
  logger.warn(`unknown observation type "${String(type)}", using "span"`);
  return 'span';
}

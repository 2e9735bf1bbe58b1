/**
 * `@obs/tracing`: the tracing names of the JS SDK's `tracing` package, re-exported from `@obs/core`
 * so that both import paths share one module instance (one tracer, one context, one processor).
 */
export {
  startObservation,
  startActiveObservation,
  updateActiveObservation,
  observe,
  propagateAttributes,
  setActiveTraceAsPublic,
  getActiveTraceId,
  getActiveSpanId,
  createTraceId,
  getObsTracer,
  ObsObservation,
  ObsAttributes,
  OBSERVATION_TYPES,
} from '@obs/core';
export type {
  ObservationLevel,
  ObservationType,
  ObsSpanAttributes,
  ObsGenerationAttributes,
  ObsObservationAttributes,
  StartObservationOptions,
  StartActiveObservationOptions,
  ObserveOptions,
  PropagateAttributesParams,
} from '@obs/core';

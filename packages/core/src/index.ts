/**
 * `@obs/core`: trace a Node.js LLM application into obs. This is the application's door: set-up,
 * observations, the client, and the options the framework adapters share. Adapter authors build on
 * `@obs/core/http` and `@obs/core/kit`.
 *
 * @packageDocumentation
 */
export { initObs, getObsHandle, type ObsHandle, type ObsInitOptions, type ObsTracingMode } from './setup/init.js';
export { ObsSpanProcessor, type ObsSpanProcessorOptions } from './export/span-processor.js';
export { ObsOtlpExporter, type ObsOtlpExporterOptions } from './export/otlp/otlp-exporter.js';
export { isDefaultExportSpan } from './export/pipeline/span-filter.js';
export { isFrameworkScope, FRAMEWORK_SCOPE_PREFIXES, KNOWN_LLM_SCOPES, KNOWN_LLM_SCOPE_PREFIXES } from './tracing/scopes.js';
export type { FrameworkSpansMode } from './export/pipeline/foreign-spans.js';
export type { Compression } from './export/otlp/compression.js';
export { MASK_FAILED, type MaskFunction } from './export/pipeline/mask.js';
export { ObsAttributes, OBSERVATION_TYPES, type ObservationLevel, type ObservationType } from './tracing/attributes.js';
export { ObsObservation } from './tracing/observation.js';
export type { ObsSpanAttributes, ObsGenerationAttributes, ObsObservationAttributes } from './tracing/observation-attributes.js';
export {
  startObservation,
  startActiveObservation,
  updateActiveObservation,
  setActiveTraceAsPublic,
  type StartObservationOptions,
  type StartActiveObservationOptions,
} from './tracing/start.js';
export { observe, type ObserveOptions } from './tracing/observe.js';
export { propagateAttributes, type PropagateAttributesParams } from './tracing/propagation.js';
export { getActiveTraceId, getActiveSpanId, createTraceId } from './tracing/ids.js';
export { getObsTracer } from './tracing/tracer.js';
export { setLogger, setLogLevel, type LogLevel, type ObsLogger } from './util/logger.js';
export { diagnose, printDiagnosis, type Diagnosis, type DiagnosisCheck, type DiagnoseOptions } from './setup/diagnose.js';
export { SDK_VERSION } from './util/version.js';
export { DEFAULT_REDACT_KEYS, type IdentifyResult, type ObsHttpOptions } from './http/options.js';
export { REDACTED, redactSecrets } from './http/redact.js';
export type { ObsRequestHandle } from './http/request-handle.js';
export * from './client/index.js';

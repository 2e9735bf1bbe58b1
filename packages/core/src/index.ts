export { initObs, getObsHandle, type ObsHandle, type ObsInitOptions, type ObsTracingMode } from './init.js';
export { ObsSpanProcessor, type ObsSpanProcessorOptions } from './export/span-processor.js';
export { ObsOtlpExporter, type ObsOtlpExporterOptions, TRACES_PATH } from './export/otlp-exporter.js';
export {
  isDefaultExportSpan,
  isFrameworkScope,
  FRAMEWORK_SCOPE_PREFIXES,
  KNOWN_LLM_SCOPES,
  KNOWN_LLM_SCOPE_PREFIXES,
} from './export/span-filter.js';
export type { FrameworkSpansMode } from './export/foreign-spans.js';
export { resolveCompression, type Compression } from './export/compression.js';
export { MASK_FAILED, maskValue, type MaskFunction } from './export/mask.js';
export { ObsAttributes, OBSERVATION_TYPES, type ObservationLevel, type ObservationType } from './attributes.js';
export { ObsObservation } from './tracing/observation.js';
export { recordErrorOnSpan, errorMessage } from './tracing/record-error.js';
export type { ObsSpanAttributes, ObsGenerationAttributes, ObsObservationAttributes } from './tracing/observation-attributes.js';
export {
  startObservation,
  startActiveObservation,
  updateActiveObservation,
  setActiveTraceAsPublic,
  activeContextFor,
  type StartObservationOptions,
  type StartActiveObservationOptions,
} from './tracing/start.js';
export { observe, type ObserveOptions, type ObserveHooks } from './tracing/observe.js';
export { propagateAttributes, contextWithAttributes, type PropagateAttributesParams } from './tracing/propagation.js';
export { getActiveTraceId, getActiveSpanId, createTraceId } from './tracing/ids.js';
export { getObsTracer } from './tracing/tracer.js';
export {
  wrapAsyncGenerator,
  wrapReadableStream,
  isAsyncIterator,
  isReadableStream,
  endObservationOnStreamEnd,
  recordObservationError,
  StreamCollector,
  DEFAULT_STREAM_CAPTURE_CHARS,
  type StreamEnd,
  type ErrorRecorder,
} from './tracing/wrap-result.js';
export { TextCapture, TRUNCATION_MARKER, truncateText } from './capture.js';
export { safeStringify, toAttributeString } from './serialize.js';
export { flattenAttributes } from './flatten.js';
export { logger, setLogger, setLogLevel, type LogLevel, type ObsLogger } from './logger.js';
export { diagnose, printDiagnosis, type Diagnosis, type DiagnosisCheck, type DiagnoseOptions } from './diagnose.js';
export { warnMisplacedOptions } from './misplaced-options.js';
export { SDK_VERSION, SDK_TRACER_NAME } from './version.js';
export { resolveConnection, type ObsConnectionOptions } from './config.js';
export * from './http/index.js';
export * from './client/index.js';

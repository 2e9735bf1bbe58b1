/**
 * `@obs/otel`: the OpenTelemetry integration of the JS SDK's `otel` package (the span processor,
 * its exporter and filter, and `initObs`), re-exported from `@obs/core` so that both import paths
 * share one module instance.
 */
export {
  ObsSpanProcessor,
  ObsOtlpExporter,
  isDefaultExportSpan,
  KNOWN_LLM_SCOPES,
  KNOWN_LLM_SCOPE_PREFIXES,
  FRAMEWORK_SCOPE_PREFIXES,
  isFrameworkScope,
  initObs,
  getObsHandle,
} from '@obs/core';
export type {
  ObsSpanProcessorOptions,
  ObsOtlpExporterOptions,
  Compression,
  MaskFunction,
  ObsHandle,
  ObsInitOptions,
  ObsTracingMode,
  FrameworkSpansMode,
} from '@obs/core';

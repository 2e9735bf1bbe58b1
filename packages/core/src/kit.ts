/**
 * `@obs/core/kit`: what obs adapters share beyond the request layers (`@obs/core/http`): the SDK
 * logger, error wording, value capture and redaction, stream wrappers, and the trace-attribute
 * context. Stable within a major for adapter authors; application code uses `@obs/core`.
 *
 * @packageDocumentation
 */
export { logger } from './logger.js';
export { errorMessage, recordErrorOnSpan } from './tracing/record-error.js';
export { warnMisplacedOptions } from './misplaced-options.js';
export { resolveConnection, type ObsConnectionOptions } from './config.js';
export { SDK_TRACER_NAME } from './version.js';
export { TextCapture, TRUNCATION_MARKER, truncateText } from './capture.js';
export { safeStringify, toAttributeString } from './serialize.js';
export { flattenAttributes } from './flatten.js';
export { maskValue } from './export/mask.js';
export { resolveCompression } from './export/compression.js';
export { DEFAULT_REDACT_KEY_SET, isRedactedKey, redact, redactKeySet } from './http/redact.js';
export { contextWithAttributes, propagatedAttributesOf } from './tracing/propagation.js';
export { activeContextFor } from './tracing/start.js';
export type { ObserveHooks } from './tracing/observe.js';
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
export { TRACES_PATH } from './export/otlp-exporter.js';

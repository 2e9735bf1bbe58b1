export { HttpObserver, RequestObservation, type RequestInit, type FinishInit } from './request-observation.js';
export {
  DEFAULT_IGNORED_PATHS,
  DEFAULT_MAX_CAPTURE_BYTES,
  DEFAULT_REDACT_KEYS,
  DEFAULT_TRACE_ID_HEADER,
  STATIC_ASSET,
  type IdentifyResult,
  type ObsHttpOptions,
} from './options.js';
export { DEFAULT_REDACT_KEY_SET, isRedactedKey, REDACTED, redact, redactKeySet, redactSecrets } from './redact.js';
export { captureValue, describeBinary, isBinary, isTextContentType } from './capture-value.js';
export { compileIgnore } from './ignore.js';

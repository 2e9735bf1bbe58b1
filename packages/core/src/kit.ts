/**
 * `@obs/core/kit`: what obs adapters share beyond the request layers (`@obs/core/http`): the
 * model SDK wrapper kit (`observeClient` and its endpoints, followers and `ModelCall`: a
 * provider package is a mapping file on it, see `src/wrap/README.md`), the guard that keeps an
 * adapter's own bugs out of the app's requests, the SDK logger, error wording, value capture and
 * redaction, the shape checks of values obs did not make (`isDict`, `isThenable`, ...), the one
 * end-once stream wrapper, the trace-attribute context, LLM calls in obs's shape (messages with
 * normalised tool calls, usage in disjoint buckets, media, the Anthropic Messages and OpenAI Chat
 * Completions formats), and an experiment run taken item by item (for test runners). When
 * `identify` runs and what awaits it: see `@obs/core/http`. Stable within a major for adapter
 * authors; application code uses `@obs/core`.
 *
 * @packageDocumentation
 */
export { AdapterGuard } from './http/adapter-guard.js';
export { logger } from './util/logger.js';
export { errorMessage, recordErrorOnSpan } from './tracing/record-error.js';
export { warnMisplacedOptions } from './config/misplaced-options.js';
export { resolveConnection, type ObsConnectionOptions } from './config/connection.js';
export { SDK_TRACER_NAME } from './util/version.js';
export { TextCapture, TRUNCATION_MARKER, truncateText } from './util/capture.js';
export { safeStringify, toAttributeString } from './util/serialize.js';
export { wholeMediaText } from './export/media/media-text.js';
export { flattenAttributes } from './util/flatten.js';
export { maskValue } from './export/pipeline/mask.js';
export { resolveCompression } from './export/otlp/compression.js';
export { DEFAULT_REDACT_KEY_SET, isRedactedKey, redact, redactKeySet } from './http/redact.js';
export { contextWithAttributes, propagatedAttributesOf } from './tracing/propagation.js';
export { activeContextFor } from './tracing/start.js';
export type { ObserveHooks } from './tracing/observe.js';
export { watchIterator, watchReadableStream, type StreamWatcher, type StreamEndKind } from './tracing/end-once.js';
export {
  wrapAsyncGenerator,
  wrapReadableStream,
  endObservationOnStreamEnd,
  recordObservationError,
  StreamCollector,
  DEFAULT_STREAM_CAPTURE_CHARS,
  type StreamEnd,
  type ErrorRecorder,
} from './tracing/wrap-result.js';
export { TRACES_PATH } from './export/otlp/otlp-exporter.js';
export { usageDetails, type TokenCounts } from './genai/usage.js';
export { toolCall, parseJsonValue, type LlmMessage, type LlmToolCall } from './genai/messages.js';
export {
  observeClient,
  isObservedClient,
  bodyMethod,
  type ClientSpec,
  type TracedMethod,
  type SelectedCall,
  type ResultFollower,
} from './wrap/observe-client.js';
export { ModelCall, type CallSettings, type WatchOptions } from './wrap/model-call.js';
export { type ModelEndpoint, type CallStart, type CallResult, type StreamReader, pick } from './wrap/endpoint.js';
export {
  type Dict,
  dict,
  finiteNumber,
  isAsyncIterable,
  isAsyncIterator,
  isDict,
  isObject,
  isReadableStream,
  isThenable,
  nonEmptyString,
} from './util/guards.js';
export { followPromise, followStreamIn } from './wrap/follow.js';
export { followApiPromise } from './wrap/stainless.js';
export { mediaDataUri } from './wrap/media.js';
export {
  ANTHROPIC_MESSAGES,
  AnthropicStreamReader,
  anthropicRequest,
  anthropicResponse,
  anthropicUsage,
} from './wrap/anthropic-messages.js';
export { OPENAI_CHAT, openAiChatMessage, openAiCost, openAiServerOf, openAiUsage } from './wrap/openai-chat.js';
export { OPENAI_RESPONSE_PARAMETERS, openAiResponse, openAiResponseInput } from './wrap/openai-responses.js';
export { startExperimentRun } from './client/experiment/start.js';
export type { ExperimentRun, DatasetSource } from './client/experiment/run.js';
export { MessageParts, splitMessage, splitMessages, type SortedBlock } from './genai/messages.js';

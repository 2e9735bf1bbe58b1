/**
 * `@obs/core/http`: the request layers adapters are built on (not for application code).
 *
 * - `NodeHttpObserver` / `NodeRequest`: Node.js `IncomingMessage`/`ServerResponse` frameworks
 *   (Express, Nest, Fastify, Koa): ignore, start, trace-id header, one end on response close with
 *   the status/abort/error rule, input from the parsed body or query, output through `NodeResponseCapture`.
 * - `FetchHttpObserver` / `FetchRequest`: fetch `Request`/`Response` frameworks (Next route
 *   handlers, Hono, Workers): input from a copy of the body, the response observed as it streams.
 * - `HttpObserver` / `RequestObservation`: the root observation of one request, shared by both.
 *
 * @packageDocumentation
 */
export { HttpObserver, RequestObservation, hasContent, type RequestInit, type FinishInit } from './request-observation.js';
export { isClientErrorStatus } from './status-rule.js';
export type { ObsRequestHandle } from './request-handle.js';
export { NodeHttpObserver, observedRequestOf, observedRequestOfResponse, type NodeLayerOptions } from './node/node-observer.js';
export { NodeRequest } from './node/node-request.js';
export { NodeResponseCapture } from './node/response-capture.js';
export { pathOf, type NodeRequestLike, type NodeResponseLike } from './node/node-types.js';
export { FetchHttpObserver, FetchRequest, delay, type FetchLayerOptions, type FetchStartInit } from './fetch/fetch-observer.js';
export { readRequestInput, type RequestInput } from './fetch/request-input.js';
export { observeResponse, type BodyEnd, type BodyObserver } from './fetch/response-output.js';
export {
  DEFAULT_IGNORED_PATHS,
  DEFAULT_MAX_CAPTURE_BYTES,
  DEFAULT_REDACT_KEYS,
  DEFAULT_TRACE_ID_HEADER,
  STATIC_ASSET,
  type IdentifyResult,
  type ObsHttpOptions,
} from './options.js';
export { captureValue, describeBinary, isBinary, isTextContentType } from './capture-value.js';
export { compileIgnore, type IgnoreMatcher } from './ignore.js';

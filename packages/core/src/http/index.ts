/**
 * `@obs/core/http`: the request layers adapters are built on (not for application code).
 *
 * - `NodeHttpObserver` / `NodeRequest`: Node.js `IncomingMessage`/`ServerResponse` frameworks
 *   (Express, Nest, Fastify, Koa): ignore, start, trace-id header, one end on response close with
 *   the status/abort/error rule, input from the parsed body or query, output through `NodeResponseCapture`.
 * - `FetchHttpObserver` / `FetchRequest`: fetch `Request`/`Response` frameworks (Next route
 *   handlers, Hono, Workers): input from a copy of the body, the response observed as it streams.
 * - `HttpObserver` / `RequestObservation`: the root observation of one request, shared by both.
 * - `flushAfterResponse` / `flushSoon`: a request's spans sent before a serverless runtime
 *   freezes (through its `waitUntil`), one flush for the requests that end together.
 *
 * When `identify` runs, and whether anything awaits it:
 * - By default it runs lazily, once: just before the first child span of the request starts, or
 *   at the end of the request if none does. So it runs after whatever the framework ran before the
 *   handler (auth middleware, guards, hooks) unless one of those starts a span. Nothing on the
 *   request path awaits it: a Promise result applies when it resolves, the request's spans are held
 *   (as objects, before export) until then, and the root's end waits for it at most 1 s.
 * - `deferIdentify` (Node.js layer, `RequestInit`) holds even the lazy run until the adapter calls
 *   `ro.allowIdentify()` (Express once routed, Fastify in `preHandler`), for frameworks whose
 *   auth runs after spans may start.
 * - An adapter may `await request.ro.identify()` itself where the framework has authenticated
 *   before the handler and the wait is acceptable (Next's route handlers do): every span of the
 *   handler then starts with identify's attributes.
 *
 * Adapter code runs inside `AdapterGuard` (`@obs/core/kit`): a bug of the adapter logs once and
 * the request is served as without obs.
 *
 * @packageDocumentation
 */
export { HttpObserver, RequestObservation, UNMATCHED, type RequestInit, type FinishInit } from './request-observation.js';
export { hasContent } from './request-capture.js';
export { isClientErrorStatus } from './status-rule.js';
export type { ObsRequestHandle } from './request-handle.js';
export { NodeHttpObserver, observedRequestOf, observedRequestOfResponse, type NodeLayerOptions } from './node/node-observer.js';
export { NodeRequest } from './node/node-request.js';
export { NodeResponseCapture } from './node/response-capture.js';
export { captureWrites } from './node/response-writes.js';
export { decodePathSegment, pathOf, type NodeRequestLike, type NodeResponseLike } from './node/node-types.js';
export { FetchHttpObserver, FetchRequest, delay, type FetchLayerOptions, type FetchStartInit } from './fetch/fetch-observer.js';
export { flushAfterResponse, flushSoon, type WaitUntil } from './fetch/after-response.js';
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

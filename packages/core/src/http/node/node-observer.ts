import { INVALID_TRACEID } from '@opentelemetry/api';
import { logger } from '../../util/logger.js';
import { errorMessage } from '../../tracing/record-error.js';
import type { ObsHttpOptions } from '../options.js';
import { HttpObserver, type RequestObservation } from '../request-observation.js';
import { NodeRequest } from './node-request.js';
import { pathOf, type NodeRequestLike, type NodeResponseLike } from './node-types.js';
import { NodeResponseCapture } from './response-capture.js';

/** How an adapter uses the Node.js layer; fixed when it is created. */
export interface NodeLayerOptions<R extends NodeRequest> {
  /** Log prefix, e.g. `@obs/express`. */
  adapter: string;
  /**
   * Record what the response sends through a `NodeResponseCapture` the adapter feeds (Express
   * hooks `res.write`/`res.end`); off when the framework hands the output over itself (Nest's interceptor).
   */
  captureWrites?: boolean;
  /**
   * Hold `identify` until the adapter calls `allowIdentify()` (route-level auth ran) or
   * `identify()`; spans started earlier do not trigger it.
   */
  deferIdentify?: boolean;
  /** Makes the adapter's own request object (a `NodeRequest` subclass); default `NodeRequest`. */
  create?: (ro: RequestObservation, req: NodeRequestLike & object, res: NodeResponseLike, path: string, adapter: string) => R;
}

/** Marks a request that is not observed (ignored, or failed to start), so it is decided once. */
const IGNORED = Symbol.for('obs.http.node.ignored');

/**
 * The observed request of each raw request in flight, read by the shared close listener and the
 * adapters' hooks, and deleted when its response closes. A `Map`, not a `WeakMap` or a property
 * on `req`: Express gives every request its own hidden class, so a property added to it costs a
 * new hidden class per request, and a `WeakMap` entry per request measured 5-11 µs of CPU per
 * request in the Express bench (the insert, and the garbage collector's work on a weak table
 * full of young keys); a `Map` holds only the requests in flight. One map per process (on
 * `globalThis`), so two copies of core still see each other's requests.
 */
const LIVE_SLOT = Symbol.for('obs.http.node.live');
const live: Map<object, NodeRequest> = ((globalThis as { [LIVE_SLOT]?: Map<object, NodeRequest> })[LIVE_SLOT] ??= new Map());

/**
 * Most requests `live` holds. Past it the oldest move to `marks`: a server whose responses never
 * emit 'close' (a hand-made response object) must not make the map grow without end, and a
 * server with more requests in flight than this still finds every one.
 */
const MAX_LIVE = 4096;

/**
 * Requests decided not to be observed (rare: ignored paths, a failed start), and observed ones
 * past `MAX_LIVE`, held weakly.
 */
const MARKS_SLOT = Symbol.for('obs.http.node.requests');
const marks: WeakMap<object, NodeRequest | typeof IGNORED> = ((
  globalThis as { [MARKS_SLOT]?: WeakMap<object, NodeRequest | typeof IGNORED> }
)[MARKS_SLOT] ??= new WeakMap());

function moveOldestToMarks(): void {
  // A Map iterates in insertion order: the first entry is the oldest request.
  for (const [req, request] of live) {
    live.delete(req);
    marks.set(req, request);
    return;
  }
}

/** What is known of a raw request: observed (in flight), not observed, or never seen. */
function lookup(req: object): NodeRequest | typeof IGNORED | undefined {
  return live.get(req) ?? marks.get(req);
}

/**
 * The Node.js request layer under the Express and Nest adapters (and any `IncomingMessage`/
 * `ServerResponse` framework): options compiled once, then per request: ignore, start the root
 * (in the active context, e.g. an incoming `traceparent`), the trace-id response header, and one
 * end when the response closes, with the status, abort, input and output rules of every adapter.
 * Never throws into the app.
 *
 * @example
 * ```ts
 * const layer = new NodeHttpObserver(options, { adapter: 'my-adapter' });
 * server.on('request', (req, res) => {
 *   const request = layer.start(req, res);
 *   context.with(request?.ro.context ?? context.active(), () => handle(req, res));
 * });
 * ```
 */
// biome-ignore lint/suspicious/noExplicitAny: Req/Res default to any so a callback typed by no framework still reads its fields (req.user); adapters pass their framework's types
export class NodeHttpObserver<Req extends object = any, Res extends object = any, R extends NodeRequest<Req, Res> = NodeRequest<Req, Res>> {
  readonly http: HttpObserver<Req, Res>;
  private readonly layer: NodeLayerOptions<R>;

  constructor(options: ObsHttpOptions<Req, Res>, layer: NodeLayerOptions<R>) {
    this.http = new HttpObserver<Req, Res>(options);
    this.layer = layer;
  }

  /** The observed request of a raw Node.js request (undefined when not observed). */
  requestOf(req: unknown): R | undefined {
    return observedRequestOf(req) as R | undefined;
  }

  /**
   * Starts observing a raw request, or returns the request started already (mounted twice, or
   * seen again by a later hook). Undefined when ignored or when something failed (logged once).
   * `subject` is what `ignore`, `name`, `identify` and `captureInput` get from the start, when the
   * framework hands users an object of its own already (Koa's `ctx`); default the raw request.
   */
  start(req: NodeRequestLike & object, res: NodeResponseLike, subject?: Req): R | undefined {
    const known = lookup(req);
    if (known !== undefined) return known === IGNORED ? undefined : (known as R);
    try {
      const method = req.method || 'GET';
      const path = pathOf(req.originalUrl || req.url);
      const target = subject ?? (req as Req);
      if (this.http.ignores(method, path, target)) {
        marks.set(req, IGNORED);
        return undefined;
      }
      const ro = this.http.start({ req: target, method, path, deferIdentify: this.layer.deferIdentify });
      const { adapter, create } = this.layer;
      const request = create ? create(ro, req, res, path, adapter) : (new NodeRequest(ro, req, res, path, adapter) as R);
      if (subject !== undefined) request.req = subject;
      // A HEAD response sends no body, whatever the handler passed.
      if (this.layer.captureWrites && this.http.options.captureOutput !== false && method !== 'HEAD') {
        request.output = new NodeResponseCapture(ro, res);
      }
      // 'close' follows 'finish' on a complete response and also fires when the client left;
      // it ends the request and forgets it.
      res.on('close', onResponseClose);
      live.set(req, request);
      if (live.size > MAX_LIVE) moveOldestToMarks();
      const header = this.http.traceIdHeader;
      if (header && ro.traceId !== INVALID_TRACEID) setHeaderIfUnsent(res, header, ro.traceId);
      return request;
    } catch (err) {
      logger.warn(`${this.layer.adapter}: request not observed: ${errorMessage(err)}`);
      live.delete(req);
      marks.set(req, IGNORED);
      return undefined;
    }
  }
}

/**
 * The observed request of a raw Node.js request, whichever layer started it, until its
 * response closes.
 */
export function observedRequestOf(req: unknown): NodeRequest | undefined {
  const known = req !== null && typeof req === 'object' ? lookup(req) : undefined;
  return known === IGNORED ? undefined : known;
}

/** The observed request a response answers (through `res.req`, which Node.js sets). */
export function observedRequestOfResponse(res: object): NodeRequest | undefined {
  return observedRequestOf((res as NodeResponseLike).req);
}

/**
 * Sets a response header unless the headers went out already (`setHeader` then throws). Not
 * `headersSent` first: each response has its own hidden class in Express, so that getter read is
 * one more inline-cache miss on every request, for a case that does not happen at request start.
 */
function setHeaderIfUnsent(res: NodeResponseLike, name: string, value: string): void {
  try {
    res.setHeader(name, value);
  } catch {
    // Already sent (a response written before the middleware ran): nothing to add it to.
  }
}

/**
 * Shared by every response, so a request allocates no listener closure. A closure per request
 * (which would spare the `res.req` read) measured 6 µs more CPU per Express request.
 */
function onResponseClose(this: NodeResponseLike): void {
  const request = observedRequestOfResponse(this);
  if (!request) return;
  try {
    request.end();
  } catch (err) {
    logger.warn(`request not recorded: ${errorMessage(err)}`);
  } finally {
    live.delete(request.rawReq);
  }
}

import { errorMessage, HttpObserver, logger, type ObsHttpOptions, type RequestObservation } from '@obs/core';
import { platformRoute } from './route-resolver.js';

/** One request's root observation and what the middleware and the interceptor learnt about it. */
export class TrackedRequest {
  /** The request object guards and handlers see (Fastify: `FastifyRequest`; Express: `raw` itself). */
  req: any;
  /** The response object handlers see. */
  res: any;
  /** The interceptor set the route from the handler's metadata. */
  routed = false;
  /** The interceptor recorded the input. */
  inputSet = false;

  constructor(
    readonly ro: RequestObservation,
    /** URL path without the query string. */
    readonly path: string,
    readonly raw: any,
    readonly rawRes: any,
  ) {
    this.req = raw;
    this.res = rawRes;
  }

  /** Records the parsed body, else the query, of the request. */
  captureInput(): void {
    this.inputSet = true;
    const body = this.req?.body;
    // Express 5 parses the query string on every read of req.query: read it only when needed.
    if (hasContent(body)) this.ro.setInput(body);
    else this.ro.setInput(undefined, this.req?.query);
  }
}

const IGNORED = Symbol('obs.ignored');
/** Where a raw request keeps its state: a symbol-keyed property is cheaper than a WeakMap entry. */
const TRACKED = Symbol('obs.nest.request');

type Carrier = { [TRACKED]?: TrackedRequest | typeof IGNORED };

/**
 * Starts and ends the root observation of each request, kept on the platform's raw Node.js
 * request so the middleware (which sees the raw request under Fastify) and the interceptor
 * (which sees the framework's) find the same one. One tracker per `ObsModule`.
 */
export class RequestTracker {
  readonly observer: HttpObserver;

  constructor(options: ObsHttpOptions) {
    const { identify, captureInput } = options;
    // Identify and captureInput see the request the guards saw (Fastify: the FastifyRequest).
    const onTracked = (fn: (req: any) => any) => (raw: unknown) => fn(this.lookup(raw)?.req ?? raw);
    this.observer = new HttpObserver({
      ...options,
      identify: identify && onTracked(identify),
      captureInput: typeof captureInput === 'function' ? onTracked(captureInput) : captureInput,
    });
  }

  /** The tracked request of `req` (raw or framework request), if any. */
  lookup(req: any): TrackedRequest | undefined {
    const known = req && typeof req === 'object' ? ((req.raw ?? req) as Carrier)[TRACKED] : undefined;
    return known === IGNORED ? undefined : known;
  }

  /**
   * Tells the tracked request the platform's request and response when they wrap the raw ones
   * (Fastify's `FastifyRequest`, `FastifyReply`), before guards run: a request a guard refuses
   * never reaches the interceptor, yet is named after the route the platform matched and
   * identified with what the guard left on the request.
   */
  link(req: any, res: any): void {
    const raw: Carrier | undefined = req?.raw;
    if (!raw || raw === req) return;
    const known = raw[TRACKED];
    if (known === undefined || known === IGNORED) return;
    known.req = req;
    known.res = res;
  }

  /**
   * Starts the root observation of a request, or returns the one started already (the
   * interceptor calls this too, for requests no middleware saw). Undefined when ignored.
   */
  begin(req: any, res: any): TrackedRequest | undefined {
    const raw: Carrier & Record<string, any> = req?.raw ?? req;
    if (!raw || typeof raw !== 'object') return undefined;
    const known = raw[TRACKED];
    if (known !== undefined) return known === IGNORED ? undefined : known;
    try {
      const method = String(raw.method ?? 'GET');
      const path = pathOf(raw.originalUrl ?? raw.url);
      if (this.observer.ignores(method, path, raw)) {
        raw[TRACKED] = IGNORED;
        return undefined;
      }
      const rawRes = res?.raw ?? res;
      // Identify waits for guards: a span a guard starts before it set req.user must not run it.
      // The interceptor runs it (after guards), else the end of the request.
      const ro = this.observer.start({ req: raw, method, path, deferIdentify: true });
      const tracked = new TrackedRequest(ro, path, raw, rawRes);
      raw[TRACKED] = tracked;
      const header = this.observer.traceIdHeader;
      if (header && rawRes && !rawRes.headersSent) rawRes.setHeader(header, ro.traceId);
      // 'close' follows 'finish' on a complete response and also fires when the client left.
      rawRes?.on?.('close', () => this.end(tracked));
      return tracked;
    } catch (err) {
      logger.warn(`@obs/nest: could not start the request observation: ${errorMessage(err)}`);
      raw[TRACKED] = IGNORED;
      return undefined;
    }
  }

  private end(tracked: TrackedRequest): void {
    try {
      const res = tracked.rawRes;
      const aborted = !res.writableFinished;
      const statusCode: number | undefined = res.headersSent || !aborted ? res.statusCode : undefined;
      // A request a guard refused never reached the interceptor: name it after the route the
      // platform matched. A 404 matched only the platform's catch-all, so it keeps its path.
      if (!tracked.routed && statusCode !== 404) tracked.ro.setRoute(platformRoute(tracked.req));
      if (!tracked.inputSet) tracked.captureInput();
      // finish() runs identify if the interceptor never did, waiting for an async one.
      tracked.ro.finish({ statusCode, aborted });
    } catch (err) {
      logger.warn(`@obs/nest: could not end the request observation: ${errorMessage(err)}`);
      tracked.ro.finish({});
    }
  }
}

function pathOf(url: unknown): string {
  if (typeof url !== 'string' || url === '') return '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function hasContent(body: unknown): boolean {
  if (body === undefined || body === null || body === '') return false;
  return typeof body !== 'object' || Buffer.isBuffer(body) || Object.keys(body).length > 0;
}

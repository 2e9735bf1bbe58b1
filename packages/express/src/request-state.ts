import { errorMessage, logger, ObsAttributes, type RequestObservation } from '@obs/core';
import type { Request, Response } from 'express';
import type { ExpressApp, ExpressRoute } from './express-internals.js';
import { OutputCapture } from './output-capture.js';
import { mountPattern, routePattern } from './route-pattern.js';
import { requestState, responseState, type HookedState } from './state-slot.js';

/** Name of a request that no route (and no mounted path) answered. */
export const UNMATCHED = '<unmatched>';

/** What the state needs from the middleware that made it. */
export interface StateOwner {
  /** The user gave `name(req)`: never rename the root. */
  readonly customName: boolean;
  /** `captureInput` as given. */
  readonly captureInput: unknown;
  /** Runs the user's `identify(req)` (it already notes a `traceName` on the state). */
  callIdentify(req: Request): unknown;
}

/** How long the end of a request waits for an `identify` that was asked for before routing. */
const IDENTIFY_WAIT_MS = 1000;

/**
 * One request's bookkeeping around its `RequestObservation`: the matched route (seen when
 * Express assigns `req.route`), the response being sent, an error passed to the error
 * handler, and the end of the response.
 */
export class RequestState implements HookedState {
  readonly output: OutputCapture | undefined;
  /** `req.route` as last assigned (the accessor reads it here). */
  routeValue: unknown;
  /** Express has dispatched a route: what app-level middleware (auth) puts on `req` is there. */
  routed = false;
  /** identify() gave a `traceName`: the trace keeps that name. */
  traceNamed = false;
  private route?: ExpressRoute;
  private routeBase = '';
  private routeApp?: ExpressApp;
  private responseBase?: string;
  private responseApp?: ExpressApp;
  private error: unknown;
  private hasError = false;
  private finishing = false;
  private pendingIdentity?: { promise: Promise<unknown>; release: () => void };

  constructor(
    readonly ro: RequestObservation<Request, Response>,
    readonly req: Request,
    readonly res: Response,
    private readonly owner: StateOwner,
    captureOutput: boolean,
  ) {
    this.output = captureOutput ? new OutputCapture(ro, res) : undefined;
  }

  /** Express assigned `req.route`: remember where it matched (the last route wins, like the handler that answers). */
  onRoute(route: unknown): void {
    this.routeValue = route;
    if (route && typeof route === 'object' && route !== this.route) {
      this.route = route as ExpressRoute;
      this.routeBase = this.req.baseUrl ?? '';
      this.routeApp = this.req.app as unknown as ExpressApp;
    }
    if (!this.routed) {
      this.routed = true;
      this.runDeferredIdentify();
    }
  }

  /**
   * `identify` was asked for before routing (a span started in early middleware): run it once
   * Express routes the request, after app-level auth, instead of too early.
   */
  deferIdentify(): Promise<unknown> {
    let release!: () => void;
    const promise = new Promise<unknown>((resolve) => {
      release = () => {
        try {
          resolve(this.owner.callIdentify(this.req));
        } catch (err) {
          resolve(Promise.reject(err));
        }
      };
    });
    this.pendingIdentity = { promise, release };
    return promise;
  }

  private runDeferredIdentify(): Promise<unknown> | undefined {
    const pending = this.pendingIdentity;
    if (!pending) return undefined;
    this.pendingIdentity = undefined;
    pending.release();
    return pending.promise;
  }

  /** Whether identify may run now rather than be deferred to routing. */
  get identifyReady(): boolean {
    return this.routed || this.finishing;
  }

  /** The response is about to end: remember where, for requests no route answered. */
  onResponseEnd(): void {
    if (this.route || this.responseBase !== undefined) return;
    this.responseBase = this.req.baseUrl ?? '';
    this.responseApp = this.req.app as unknown as ExpressApp;
  }

  /** An error reached `obsErrorHandler` (thrown, rejected, or passed to `next`). The first one is the cause. */
  noteError(err: unknown): void {
    if (this.hasError) return;
    this.hasError = true;
    this.error = err;
  }

  /** The response closed: finished, or cut short by the client. */
  onClose(): void {
    if (this.finishing) return;
    this.finishing = true;
    const aborted = !this.res.writableFinished;
    const identified = this.runDeferredIdentify();
    if (!identified) {
      this.complete(aborted);
      return;
    }
    // Core applies identify's result in a reaction registered before this one: end the root
    // after it, without waiting forever for an identify that never settles.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, IDENTIFY_WAIT_MS);
      timer.unref?.();
    });
    const done = () => {
      clearTimeout(timer);
      this.complete(aborted);
    };
    Promise.race([identified.then(noop, noop), timeout]).then(done, done);
  }

  private complete(aborted: boolean): void {
    const { ro, req, res } = this;
    try {
      this.name(res.statusCode);
      if (this.owner.captureInput !== false) {
        ro.setInput(req.body, typeof this.owner.captureInput === 'function' ? undefined : req.query);
      }
      this.output?.finish(res.statusCode);
      if (this.hasError) {
        if (!aborted && res.statusCode >= 400 && res.statusCode < 500) {
          // Handled as a client error by the app: not an error of the service.
          ro.observation.update({ statusMessage: errorMessage(this.error) });
        } else ro.recordError(this.error);
      }
    } catch (err) {
      logger.warn(`@obs/express: could not record the request: ${errorMessage(err)}`);
    }
    // An error that cut the response short (Express destroys the socket when headers were
    // already sent) is the server's failure, not a client that went away.
    const cancelled = aborted && !this.hasError;
    ro.finish({ statusCode: aborted && !res.headersSent ? undefined : res.statusCode, aborted: cancelled });
  }

  /** `METHOD /route/:param`, `METHOD /mount/path` (middleware under a mount), else `METHOD <unmatched>`. */
  private name(statusCode: number): void {
    const { ro } = this;
    let pattern: string | undefined;
    if (this.route) pattern = routePattern(this.route, this.routeBase, this.routeApp);
    else if (statusCode !== 404 && this.responseBase) pattern = mountPattern(this.responseBase, this.responseApp);
    if (this.owner.customName) {
      if (pattern) ro.setRoute(pattern);
      return;
    }
    const span = ro.observation.otelSpan;
    const method = String(this.req.method).toUpperCase();
    if (pattern) {
      ro.setRoute(pattern);
      // Core keeps the span name once identify() named the trace; the span is still the route.
      if (this.traceNamed) span.updateName(`${method} ${pattern}`);
      return;
    }
    const name = `${method} ${UNMATCHED}`;
    span.updateName(name);
    if (!this.traceNamed) span.setAttribute(ObsAttributes.TRACE_NAME, name);
  }
}

function noop(): void {}

/** The state of a request the middleware observes. */
export function stateOf(req: Request): RequestState | undefined {
  return requestState(req) as RequestState | undefined;
}

/** The state of the request a response answers. */
export function stateOfResponse(res: Response): RequestState | undefined {
  return responseState(res) as RequestState | undefined;
}

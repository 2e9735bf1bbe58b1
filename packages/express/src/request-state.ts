import { errorMessage, logger, type RequestObservation } from '@obs/core';
import type { Request, Response } from 'express';
import type { ExpressApp, ExpressRoute } from './express-internals.js';
import { OutputCapture } from './output-capture.js';
import { mountPattern, routePattern } from './route-pattern.js';

/** Name of a request that no route (and no mounted path) answered. */
export const UNMATCHED = '<unmatched>';

/**
 * One request's bookkeeping around its `RequestObservation`: the matched route (seen when
 * Express assigns `req.route`), the response being sent, an error passed to the error
 * handler, and the end of the response.
 */
export class RequestState {
  readonly output: OutputCapture | undefined;
  /** `req.route` as last assigned (the accessor reads it here). */
  routeValue: unknown;
  private route?: ExpressRoute;
  private routeBase = '';
  private routeApp?: ExpressApp;
  private responseBase?: string;
  private responseApp?: ExpressApp;
  private error: unknown;
  private hasError = false;
  private finished = false;

  constructor(
    readonly ro: RequestObservation<Request, Response>,
    readonly req: Request,
    readonly res: Response,
    captureOutput: boolean,
  ) {
    this.output = captureOutput ? new OutputCapture(ro, res) : undefined;
  }

  /**
   * Express assigned `req.route`: remember where it matched (the last route wins, like the
   * handler that answers). The request is routed, so app-level auth ran: identify may run, at
   * the next span (after route-level auth) or at the end.
   */
  onRoute(route: unknown): void {
    this.routeValue = route;
    if (route && typeof route === 'object' && route !== this.route) {
      this.route = route as ExpressRoute;
      this.routeBase = this.req.baseUrl ?? '';
      this.routeApp = this.req.app as unknown as ExpressApp;
      this.ro.allowIdentify();
    }
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
    if (this.finished) return;
    this.finished = true;
    const { ro, req, res } = this;
    const aborted = !res.writableFinished;
    try {
      this.name(res.statusCode);
      ro.setInput(req.body, req.query);
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
    let pattern: string | undefined;
    if (this.route) pattern = routePattern(this.route, this.routeBase, this.routeApp);
    else if (statusCode !== 404 && this.responseBase) pattern = mountPattern(this.responseBase, this.responseApp);
    if (pattern) this.ro.setRoute(pattern);
    else this.ro.setName(`${String(this.req.method).toUpperCase()} ${UNMATCHED}`);
  }
}

/**
 * Slot of a request's state, on `req` only: one property added per request (`res` reaches it
 * through `res.req`, which Node.js and Express both set).
 */
const STATE = Symbol.for('obs.express.request');

type WithState = { [STATE]?: RequestState };

/** Attaches the state to the request. */
export function attachState(req: object, state: RequestState): void {
  (req as WithState)[STATE] = state;
}

/** The state of a request the middleware observes. */
export function stateOf(req: object | undefined): RequestState | undefined {
  return req === undefined ? undefined : (req as WithState)[STATE];
}

/** The state of the request a response answers. */
export function stateOfResponse(res: object): RequestState | undefined {
  return stateOf((res as { req?: object }).req);
}

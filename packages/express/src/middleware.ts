import { context, INVALID_TRACEID } from '@opentelemetry/api';
import { errorMessage, HttpObserver, logger, type IdentifyResult, type ObsHttpOptions } from '@obs/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ensureObs } from './ensure-obs.js';
import type { ObsExpressOptions } from './options.js';
import { hookPrototypes } from './prototype-hooks.js';
import { RequestState, stateOf, stateOfResponse, type StateOwner } from './request-state.js';
import { attachState } from './state-slot.js';
import { flushOnServerClose } from './server-close.js';

/**
 * Traces every request as a root observation named `METHOD /route/:param`, with its input,
 * output, errors and `identify(req)`'s user and session propagated to every span created while
 * handling it. Put it first: `app.use(obsMiddleware())`, and `app.use(obsErrorHandler())` after
 * the routes. Sets tracing up itself (from `OBS_*` env and `options.obs`) when nothing has.
 */
export function obsMiddleware(options: ObsExpressOptions = {}): RequestHandler {
  const adapter = new ExpressObserver(options);
  return function obsMiddleware(req: Request, res: Response, next: NextFunction): void {
    const state = adapter.observe(req, res);
    if (state) context.with(state.ro.context, next);
    else next();
  };
}

/** One `obsMiddleware(options)`: options compiled once, requests observed. */
class ExpressObserver implements StateOwner {
  readonly customName: boolean;
  readonly captureInput: unknown;
  private readonly observer: HttpObserver<Request, Response>;
  private readonly captureOutput: boolean;
  private readonly flushOnClose: boolean;
  private readonly identify?: ObsHttpOptions<Request, Response>['identify'];
  private ready = false;
  private lastServer: unknown;

  constructor(private readonly options: ObsExpressOptions) {
    this.customName = typeof options.name === 'function';
    this.captureInput = options.captureInput;
    this.captureOutput = options.captureOutput !== false;
    this.flushOnClose = options.flushOnClose !== false;
    this.identify = options.identify;
    const { obs: _obs, flushOnClose: _flush, ...http } = options;
    this.observer = new HttpObserver<Request, Response>({
      ...http,
      identify: options.identify ? (req) => this.identifyWhenRouted(req) : undefined,
    });
  }

  /** Starts the request's observation, or returns undefined (ignored, or something failed: never the app's problem). */
  observe(req: Request, res: Response): RequestState | undefined {
    try {
      if (!this.ready) {
        ensureObs(this.options.obs);
        this.ready = true;
      }
      // Mounted twice (app and sub-app): the outer one observes.
      if (stateOf(req)) return undefined;
      const server = (req.socket as { server?: unknown } | undefined)?.server;
      if (this.flushOnClose && server !== this.lastServer) {
        this.lastServer = server;
        flushOnServerClose(server);
      }
      const url = req.originalUrl || req.url || '/';
      const q = url.indexOf('?');
      const path = q === -1 ? url : url.slice(0, q);
      const method = req.method || 'GET';
      if (this.observer.ignores(method, path, req)) return undefined;
      const ro = this.observer.start({ req, method, path });
      // A HEAD response sends no body, whatever the handler passed to res.json/res.send.
      const state = new RequestState(ro, req, res, this, this.captureOutput && method !== 'HEAD');
      attachState(req, state);
      hookPrototypes(req, res);
      res.on('close', onResponseClose);
      const header = this.observer.traceIdHeader;
      if (header && !res.headersSent && ro.traceId !== INVALID_TRACEID) res.setHeader(header, ro.traceId);
      return state;
    } catch (err) {
      logger.warn(`@obs/express: request not observed: ${errorMessage(err)}`);
      return undefined;
    }
  }

  /** The user's identify, noting a `traceName` so the adapter keeps that name. */
  callIdentify(req: Request): unknown {
    const result = this.identify!(req);
    const state = stateOf(req);
    if (!state) return result;
    if (result && typeof (result as PromiseLike<unknown>).then === 'function') {
      return Promise.resolve(result).then((r) => {
        noteTraceName(state, r);
        return r;
      });
    }
    noteTraceName(state, result);
    return result;
  }

  /** What core calls (lazily, at the first child span or the end): too early before routing, so deferred until then. */
  private identifyWhenRouted(req: Request): ReturnType<NonNullable<ObsHttpOptions['identify']>> {
    const state = stateOf(req);
    if (state && !state.identifyReady) return state.deferIdentify() as Promise<IdentifyResult | undefined>;
    return this.callIdentify(req) as IdentifyResult | undefined;
  }
}

function noteTraceName(state: RequestState, result: unknown): void {
  const name = (result as IdentifyResult | null | undefined)?.traceName;
  if (typeof name === 'string' && name.length > 0) state.traceNamed = true;
}

/** `res` 'close': shared, so a request allocates no listener closure. */
function onResponseClose(this: Response): void {
  try {
    stateOfResponse(this)?.onClose();
  } catch (err) {
    logger.warn(`@obs/express: request not recorded: ${errorMessage(err)}`);
  }
}

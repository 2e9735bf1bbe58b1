import { context, INVALID_TRACEID } from '@opentelemetry/api';
import { errorMessage, HttpObserver, initObs, logger, warnMisplacedOptions } from '@obs/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ObsExpressOptions } from './options.js';
import { hookPrototypes } from './prototype-hooks.js';
import { attachState, RequestState, stateOf, stateOfResponse } from './request-state.js';
import { flushOnServerClose } from './server-close.js';

/**
 * Traces every request as a root observation named `METHOD /route/:param`, with its input,
 * output, errors and `identify(req)`'s user and session propagated to every span created while
 * handling it. Put it first: `app.use(obsMiddleware())`, and `app.use(obsErrorHandler())` after
 * the routes. Sets tracing up itself (from `OBS_*` env and `options.obs`) when nothing has.
 */
export function obsMiddleware(options: ObsExpressOptions = {}): RequestHandler {
  warnMisplacedOptions('obsMiddleware', options);
  const adapter = new ExpressObserver(options);
  return function obsMiddleware(req: Request, res: Response, next: NextFunction): void {
    const state = adapter.observe(req, res);
    if (state) context.with(state.ro.context, next);
    else next();
  };
}

/** One `obsMiddleware(options)`: options compiled once, requests observed. */
class ExpressObserver {
  private readonly observer: HttpObserver<Request, Response>;
  private readonly captureOutput: boolean;
  private readonly flushOnClose: boolean;
  private ready = false;
  private lastServer: unknown;

  constructor(private readonly options: ObsExpressOptions) {
    this.captureOutput = options.captureOutput !== false;
    this.flushOnClose = options.flushOnClose !== false;
    const { obs: _obs, flushOnClose: _flush, ...http } = options;
    this.observer = new HttpObserver<Request, Response>(http);
  }

  /** Starts the request's observation, or returns undefined (ignored, or something failed: never the app's problem). */
  observe(req: Request, res: Response): RequestState | undefined {
    try {
      if (!this.ready) {
        // Idempotent: the existing handle when tracing is set up already.
        initObs(this.options.obs);
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
      // identify waits for routing (app-level auth ran): RequestState.onRoute allows it.
      const ro = this.observer.start({ req, method, path, deferIdentify: true });
      // A HEAD response sends no body, whatever the handler passed to res.json/res.send.
      const state = new RequestState(ro, req, res, this.captureOutput && method !== 'HEAD');
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
}

/** `res` 'close': shared, so a request allocates no listener closure. */
function onResponseClose(this: Response): void {
  try {
    stateOfResponse(this)?.onClose();
  } catch (err) {
    logger.warn(`@obs/express: request not recorded: ${errorMessage(err)}`);
  }
}

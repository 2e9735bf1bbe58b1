import { context } from '@opentelemetry/api';
import { initObs } from '@obs/core';
import { NodeHttpObserver } from '@obs/core/http';
import { warnMisplacedOptions } from '@obs/core/kit';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ExpressRequest } from './express-request.js';
import { guard } from './guard.js';
import type { ObsExpressOptions } from './options.js';
import { hookPrototypes } from './prototype-hooks.js';
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
  // Named explicitly: OpenTelemetry's Express instrumentation names its span after the middleware,
  // and a bundler renames a function expression that shadows the factory's name (esbuild:
  // obsMiddleware2).
  return Object.defineProperty(
    (req: Request, res: Response, next: NextFunction): void => {
      const request = adapter.observe(req, res);
      if (request) context.with(request.ro.context, next);
      else next();
    },
    'name',
    { value: 'obsMiddleware' },
  );
}

/** One `obsMiddleware(options)`: core's Node.js layer, plus the Express set-up it needs once per app. */
class ExpressObserver {
  private readonly layer: NodeHttpObserver<Request, Response, ExpressRequest>;
  private readonly flushOnClose: boolean;
  private ready = false;
  private lastServer: unknown;

  constructor(private readonly options: ObsExpressOptions) {
    this.flushOnClose = options.flushOnClose !== false;
    const { obs: _obs, flushOnClose: _flush, ...http } = options;
    this.layer = new NodeHttpObserver<Request, Response, ExpressRequest>(http, {
      adapter: '@obs/express',
      captureWrites: true,
      // identify waits for routing (app-level auth ran): ExpressRequest.onRoute allows it.
      deferIdentify: true,
      create: (ro, req, res, path, adapter) => new ExpressRequest(ro, req, res, path, adapter),
    });
  }

  /** Starts the request's observation, or returns undefined (ignored, or something failed: never the app's problem). */
  observe(req: Request, res: Response): ExpressRequest | undefined {
    return guard.run(() => {
      if (!this.ready) {
        // Idempotent: the existing handle when tracing is set up already.
        initObs(this.options.obs);
        this.ready = true;
      }
      const server = (req.socket as { server?: unknown } | undefined)?.server;
      if (this.flushOnClose && server !== this.lastServer) {
        this.lastServer = server;
        flushOnServerClose(server);
      }
      const request = this.layer.start(req, res);
      if (request) hookPrototypes(req, res);
      return request;
    });
  }
}

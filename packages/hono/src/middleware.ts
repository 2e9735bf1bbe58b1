import { getObsHandle, initObs, type ObsHandle } from '@obs/core';
import { FetchHttpObserver, flushAfterResponse, type FetchRequest } from '@obs/core/http';
import { AdapterGuard, warnMisplacedOptions } from '@obs/core/kit';
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { ObsHonoOptions } from './options.js';
import { remember } from './request-observation.js';
import { bindingsOf, bodyAfterHandler, requestEnded, waitUntilOf } from './runtime.js';

/** After the runtime is done with a request, how long its response body may still take to end. */
const END_GRACE_MS = 1000;

/**
 * Traces every request as a root observation named `METHOD /route/:param`, with its input, output
 * (streams reassembled as they pass, never buffered), errors, and `identify(c)`'s user and session
 * on every span created while handling it. Put it first: `app.use(obs())`. Sets tracing up itself
 * on the first request when nothing has (from `OBS_*` in `process.env` or a Worker's `env`
 * bindings, and `options.obs`); where the runtime has `waitUntil` (Workers), each request's spans
 * are flushed through it after the response.
 *
 * @example
 * ```ts
 * const app = new Hono();
 * app.use(obs({ identify: (c) => ({ userId: c.get('user')?.id }) }));
 * ```
 */
export function obs(options: ObsHonoOptions = {}): MiddlewareHandler {
  warnMisplacedOptions('obs', options);
  const { obs: init, flushAfterResponse: flush = true, ...http } = options;
  const guard = new AdapterGuard('@obs/hono');
  const layer = new FetchHttpObserver<Request, Context>(http, { adapter: '@obs/hono' });
  let handle: ObsHandle | undefined;

  const observed = async (c: Context, next: () => Promise<void>): Promise<void> => {
    // Idempotent: the existing handle when tracing is set up already.
    handle ??= getObsHandle() ?? initObs({ env: bindingsOf(c), ...init });
    const request = start(layer, c);
    if (!request) return next();
    remember(c, request);
    const ended = requestEnded(c);
    if (ended) request.endBy(ended, END_GRACE_MS);
    const waitUntil = flush ? waitUntilOf(c) : undefined;
    try {
      c.res = await request.run(async () => {
        await next();
        // Hono caught a throw and answered it with onError: the status decides what it was.
        if (c.error) request.ro.noteError(c.error);
        return c.res;
      });
    } finally {
      if (waitUntil) flushAfterResponse(handle, request, waitUntil);
    }
  };

  return function obs(c, next) {
    return guard.around((next) => observed(c, next), next);
  };
}

/** Starts the request's root, named after the route Hono matched for its handler. */
function start(layer: FetchHttpObserver<Request, Context>, c: Context): FetchRequest<Request, Context> | undefined {
  const route = handlerRoute(c);
  const request = layer.start(c.req.raw, { path: c.req.path, route, subject: c, bodyAfterHandler: bodyAfterHandler(c) });
  if (request && route === undefined) request.ro.setUnmatched();
  return request;
}

/**
 * The route pattern of the handler Hono matched: Hono routes before any middleware runs, and the
 * last route matched is the handler's, unless it is a middleware (`(c, next)`), which means no
 * handler matched and Hono will answer 404.
 */
function handlerRoute(c: Context): string | undefined {
  const last = matchedRoutes(c).at(-1);
  if (!last || last.handler.length >= 2) return undefined;
  return last.path === '*' || last.path === '/*' ? undefined : last.path;
}

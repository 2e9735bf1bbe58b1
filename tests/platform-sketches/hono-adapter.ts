/**
 * A Hono adapter sketched on core's fetch layer (`@obs/core/http`), to show what a new
 * fetch-based adapter has to write: only Hono's knowledge (its middleware signature, `routePath`,
 * `c.error`, replacing `c.res`). Everything else (ignore, input from a copy of the body, the
 * streamed output, the trace-id header, the status and error rule, the end) is the layer's.
 *
 * @example
 * ```ts
 * const app = new Hono();
 * app.use(obsHono({ identify: (req) => ({ userId: req.headers.get('x-user') ?? undefined }) }));
 * ```
 */
import { initObs, type ObsHttpOptions } from '@obs/core';
import { FetchHttpObserver } from '@obs/core/http';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';

export function obsHono(options: ObsHttpOptions<Request, Response> = {}): MiddlewareHandler {
  const layer = new FetchHttpObserver<Request>(options, { adapter: 'obs-hono' });
  // Idempotent: the existing handle when tracing is set up already.
  initObs();
  return async function obs(c, next) {
    // The last route Hono matched is the handler's; `*` alone means only middleware matched.
    const route = routePath(c, -1);
    const request = layer.start(c.req.raw, { path: c.req.path, route: route && route !== '*' ? route : undefined });
    if (!request) return next();
    // Awaited, so every span of the handler carries identify's attributes.
    await request.ro.identify();
    c.res = await request.run(async () => {
      await next();
      // Hono caught a handler's throw and answered it with onError: the status decides what it was.
      if (c.error) request.ro.noteError(c.error);
      return c.res;
    });
  };
}

import type { ObsHttpOptions, ObsInitOptions } from '@obs/core';
import type { Context } from 'hono';

/**
 * Options of `obs()`: the shared request-observation options of every obs framework adapter
 * (`identify`, `captureInput`, `captureOutput`, `maxCaptureBytes`, `redactKeys`, `ignore`,
 * `traceIdHeader`, `name`), called with Hono's `Context` (so `identify` reads what your auth
 * middleware set: `c.get('user')`), plus what only Hono needs.
 */
export interface ObsHonoOptions extends ObsHttpOptions<Context, Response> {
  /**
   * Options for `initObs()` when the middleware sets tracing up itself (on the first request,
   * when nothing called `initObs` before). Ignored when tracing is already set up.
   */
  obs?: ObsInitOptions;
  /**
   * Where the runtime has `waitUntil` (Cloudflare Workers, Vercel, Netlify: `c.executionCtx`),
   * flush each request's spans through it once its response has ended, so a runtime that freezes
   * or ends the isolate after the response loses nothing. Default `true`.
   */
  flushAfterResponse?: boolean;
}

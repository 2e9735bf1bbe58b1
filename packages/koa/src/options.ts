import type { ObsHttpOptions, ObsInitOptions } from '@obs/core';
import type { Context } from 'koa';

/**
 * Options of `obsMiddleware`: the shared request-observation options of every obs framework
 * adapter (`identify`, `captureInput`, `captureOutput`, `maxCaptureBytes`, `redactKeys`, `ignore`,
 * `traceIdHeader`, `name`), called with Koa's `ctx` (`captureOutput(body, ctx)` too), plus what
 * only Koa needs.
 */
export interface ObsKoaOptions extends ObsHttpOptions<Context, Context> {
  /**
   * Options for `initObs()` when the middleware sets tracing up itself (at the first request,
   * when nothing called `initObs` before). Ignored when tracing is already set up.
   */
  obs?: ObsInitOptions;
}

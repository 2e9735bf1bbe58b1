import type { ObsHttpOptions, ObsInitOptions } from '@obs/core';
import type { Request, Response } from 'express';

/**
 * Options of `obsMiddleware`: the shared request-observation options of every obs framework
 * adapter (`identify`, `captureInput`, `captureOutput`, `maxCaptureBytes`, `redactKeys`,
 * `ignore`, `traceIdHeader`, `name`), plus what only Express needs.
 */
export interface ObsExpressOptions extends ObsHttpOptions<Request, Response> {
  /**
   * Options for `initObs()` when the middleware sets tracing up itself (on the first request,
   * when nothing called `initObs` before). Ignored when tracing is already set up.
   */
  obs?: ObsInitOptions;
  /**
   * Flush the spans of finished requests when the HTTP server closes, before the callback of
   * `server.close(callback)` runs, so a shutdown that exits in that callback loses nothing.
   * Default `true`.
   */
  flushOnClose?: boolean;
}

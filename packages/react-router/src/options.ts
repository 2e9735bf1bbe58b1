/** The options of `obsInstrumentation()` and what its callbacks are called with. */
import type { ObsHttpOptions, ObsInitOptions } from '@obs/core';

/**
 * What `identify`, `captureInput`, `name` and `ignore` are called with: the request as React Router
 * hands it to instrumentations (`method`, `url`, `headers`) and its router context (`context.get`
 * reads what your middleware set), read-only.
 */
export interface ObsRequestInfo {
  request: { method: string; url: string; headers: Pick<Headers, 'get'> };
  context: { get(key: never): unknown } | undefined;
}

/**
 * Options of `obsInstrumentation()`: the shared request-observation options of every obs framework
 * adapter (`identify`, `captureInput`, `maxCaptureBytes`, `redactKeys`, `ignore`, `name`), called
 * with `ObsRequestInfo`. React Router's instrumentations are read-only: they see neither the
 * response nor what loaders return, so there is no `captureOutput` and no trace-id header.
 */
export interface ObsReactRouterOptions extends Omit<ObsHttpOptions<ObsRequestInfo, never>, 'captureOutput' | 'traceIdHeader'> {
  /**
   * Options for `initObs()` when the instrumentation sets tracing up itself (on the first request,
   * when nothing called `initObs` before). Ignored when tracing is already set up.
   */
  obs?: ObsInitOptions;
  /** Record each route middleware as a child observation too. Default `false` (loaders and actions only). */
  middleware?: boolean;
}

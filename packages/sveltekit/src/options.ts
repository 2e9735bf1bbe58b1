/** The options of `obsHandle()`. */
import type { ObsHttpOptions, ObsInitOptions } from '@obs/core';
import type { RequestEvent } from '@sveltejs/kit';

/**
 * Options of `obsHandle()`: the shared request-observation options of every obs framework adapter
 * (`identify`, `captureInput`, `captureOutput`, `maxCaptureBytes`, `redactKeys`, `ignore`,
 * `traceIdHeader`, `name`), called with SvelteKit's `RequestEvent` (so `identify` reads what your
 * auth hook set: `event.locals.user`).
 */
export interface ObsSvelteKitOptions extends ObsHttpOptions<RequestEvent, Response> {
  /**
   * Options for `initObs()` when the handle sets tracing up itself (on the first request, when
   * nothing called `initObs` before). Ignored when tracing is already set up.
   */
  obs?: ObsInitOptions;
}

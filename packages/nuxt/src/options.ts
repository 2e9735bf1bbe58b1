/** The options of `obsNitroPlugin()`. */
import type { ObsHttpOptions, ObsInitOptions } from '@obs/core';
import type { H3Event } from 'h3';

/**
 * Options of `obsNitroPlugin()`: the shared request-observation options of every obs framework
 * adapter (`identify`, `captureInput`, `captureOutput`, `maxCaptureBytes`, `redactKeys`, `ignore`,
 * `traceIdHeader`, `name`), called with h3's `H3Event` (so `identify` reads what your auth
 * middleware set: `event.context.user`).
 */
export interface ObsNuxtOptions extends ObsHttpOptions<H3Event, H3Event> {
  /**
   * Options for `initObs()` when the plugin sets tracing up itself (at server start, when nothing
   * called `initObs` before). Ignored when tracing is already set up.
   */
  obs?: ObsInitOptions;
}

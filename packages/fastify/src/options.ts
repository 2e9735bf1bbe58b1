import type { ObsHttpOptions, ObsInitOptions } from '@obs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Options of `obsPlugin`: the shared request-observation options of every obs framework adapter
 * (`identify`, `captureInput`, `captureOutput`, `maxCaptureBytes`, `redactKeys`, `ignore`,
 * `traceIdHeader`, `name`), plus what only Fastify needs. `identify`, `captureInput` and
 * `captureOutput` get Fastify's `FastifyRequest` and `FastifyReply`; `ignore` and `name` run when
 * the request arrives and get the same `FastifyRequest` (route-level data is not known yet).
 */
export interface ObsFastifyOptions extends ObsHttpOptions<FastifyRequest, FastifyReply> {
  /**
   * Options for `initObs()` when the plugin sets tracing up itself (at registration, when nothing
   * called `initObs` before). Ignored when tracing is already set up.
   */
  obs?: ObsInitOptions;
  /** `fastify.close()` flushes the spans of finished requests before it resolves. Default `true`. */
  flushOnClose?: boolean;
}

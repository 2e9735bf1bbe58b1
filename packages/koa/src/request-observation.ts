/** The request's handle while it runs, for handlers that want its trace id or root observation. */
import type { ObsRequestHandle } from '@obs/core';
import { observedRequestOf } from '@obs/core/http';
import type { Context } from 'koa';

/**
 * The request's trace id and root observation while it runs (undefined when the request is not
 * observed, and once its response has closed), e.g. to add metadata from a handler:
 * `getRequestObservation(ctx)?.observation.update({ metadata })`, or to keep the trace id for a
 * score later.
 */
export function getRequestObservation(ctx: Context): ObsRequestHandle | undefined {
  return observedRequestOf(ctx.req)?.ro.handle;
}

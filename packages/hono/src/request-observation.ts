/** The request's handle while it runs, for handlers that want its trace id or root observation. */
import type { ObsRequestHandle } from '@obs/core';
import type { FetchRequest } from '@obs/core/http';
import type { Context } from 'hono';

const requests = new WeakMap<Context, FetchRequest<Request, Context>>();

/** Called by the middleware when it starts observing a request. */
export function remember(c: Context, request: FetchRequest<Request, Context>): void {
  requests.set(c, request);
}

/**
 * The request's trace id and root observation (undefined when the request is not observed), e.g.
 * to add metadata from a handler: `getRequestObservation(c)?.observation.update({ metadata })`,
 * or to keep the trace id for a score later.
 */
export function getRequestObservation(c: Context): ObsRequestHandle | undefined {
  return requests.get(c)?.ro.handle;
}

/** The request's handle while it runs, for handlers that want its trace id or root observation. */
import type { ObsRequestHandle } from '@obs/core';
import { observedRequestOf } from '@obs/core/http';
import type { H3Event } from 'h3';

/**
 * The request's trace id and root observation (undefined when the request is not observed), e.g.
 * in a server route: `getRequestObservation(event)?.observation.update({ metadata })`.
 */
export function getRequestObservation(event: H3Event): ObsRequestHandle | undefined {
  return observedRequestOf(event.node?.req)?.ro.handle;
}

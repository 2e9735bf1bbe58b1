import type { ObsRequestHandle } from '@obs/core';
import { observedRequestOf } from '@obs/core/http';
import type { Request } from 'express';

/**
 * The request's trace id and root observation while it runs (undefined when the request is not
 * observed, and once its response has closed), e.g.
 * to add metadata from a handler: `getRequestObservation(req)?.observation.update({ metadata })`,
 * or to keep the trace id for a score later.
 */
export function getRequestObservation(req: Request): ObsRequestHandle | undefined {
  return observedRequestOf(req)?.ro.handle;
}

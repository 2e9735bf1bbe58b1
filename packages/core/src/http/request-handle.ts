import type { ObsObservation } from '../tracing/observation.js';

/**
 * The current request as users see it (`getRequestObservation(req)` in `@obs/express`): its
 * trace id (to score it later) and its root observation (to add metadata). The lifecycle behind it
 * (finish, capture) stays with the adapter.
 */
export interface ObsRequestHandle {
  readonly traceId: string;
  readonly observation: ObsObservation;
}

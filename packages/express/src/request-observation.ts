import type { RequestObservation } from '@obs/core';
import type { Request, Response } from 'express';
import { stateOf } from './request-state.js';

/**
 * The root observation of a request the middleware observes (undefined when ignored), e.g. to
 * add metadata to it from a handler: `getRequestObservation(req)?.observation.update({ metadata })`.
 */
export function getRequestObservation(req: Request): RequestObservation<Request, Response> | undefined {
  return stateOf(req)?.ro;
}

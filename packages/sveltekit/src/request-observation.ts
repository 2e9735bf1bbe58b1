/** The request's handle while it runs, for `handleError`, load functions and endpoints. */
import type { ObsRequestHandle } from '@obs/core';
import type { FetchRequest } from '@obs/core/http';
import type { RequestEvent } from '@sveltejs/kit';

const requests = new WeakMap<object, FetchRequest<Request, RequestEvent>>();

/** Called by the handle when it starts observing a request. */
export function remember(event: RequestEvent, request: FetchRequest<Request, RequestEvent>): void {
  requests.set(event, request);
  requests.set(event.request, request);
}

/**
 * The observed request of an event: SvelteKit hands `handleError` and load functions events of
 * their own, around the same `Request` the `handle` event carried.
 */
export function requestOf(event: RequestEvent): FetchRequest<Request, RequestEvent> | undefined {
  return requests.get(event) ?? (event?.request ? requests.get(event.request) : undefined);
}

/**
 * The request's trace id and root observation (undefined when the request is not observed), e.g.
 * in a load function: `getRequestObservation(event)?.observation.update({ metadata })`.
 */
export function getRequestObservation(event: RequestEvent): ObsRequestHandle | undefined {
  return requestOf(event)?.ro.handle;
}

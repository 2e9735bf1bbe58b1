import type { OutputCapture } from './output-capture.js';

/**
 * Slot of a request's state, on `req` only: one property added per request (`res` reaches it
 * through `res.req`, which Node.js and Express both set).
 */
export const STATE = Symbol.for('obs.express.request');

/** What the response and request hooks need from a request's state. */
export interface HookedState {
  readonly output: OutputCapture | undefined;
  /** `req.route` as last assigned. */
  readonly routeValue: unknown;
  /** The response is ending (before `res.end` runs). */
  onResponseEnd(): void;
  /** Express assigned `req.route`. */
  onRoute(route: unknown): void;
}

type WithState = { [STATE]?: HookedState };

/** Attaches the state to the request. */
export function attachState(req: object, state: HookedState): void {
  (req as WithState)[STATE] = state;
}

/** The state of an observed request, if any. */
export function requestState(req: object | undefined): HookedState | undefined {
  return req === undefined ? undefined : (req as WithState)[STATE];
}

/** The state of the request a response answers, if observed. */
export function responseState(res: object): HookedState | undefined {
  return requestState((res as { req?: object }).req);
}

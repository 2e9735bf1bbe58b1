/**
 * `@obs/sveltekit`: one line to trace a SvelteKit app into obs: each request a trace named after its
 * route (`POST /chat/[id]`), `+server` endpoints and pages alike, with errors from `handleError`.
 *
 * @example
 * ```ts
 * // src/hooks.server.ts
 * import { obsHandle, obsHandleError } from '@obs/sveltekit';
 * export const handle = obsHandle();
 * export const handleError = obsHandleError();
 * ```
 *
 * @packageDocumentation
 */
export { obsHandle, type ObsHandle } from './handle.js';
/** Name of a request no route matched: `GET <unmatched>`, in every obs adapter. */
export { UNMATCHED } from '@obs/core/http';
export { obsHandleError, type ObsHandleError, type ObsHandleErrorInput } from './handle-error.js';
export { getRequestObservation } from './request-observation.js';
export type { ObsSvelteKitOptions } from './options.js';

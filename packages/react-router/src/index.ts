/**
 * `@obs/react-router`: one line to trace a React Router framework-mode app (8.1+) into obs,
 * through React Router's own instrumentation API.
 *
 * @example
 * ```ts
 * // app/entry.server.tsx
 * import { obsInstrumentation } from '@obs/react-router';
 * export const instrumentations = [obsInstrumentation()];
 * ```
 *
 * @packageDocumentation
 */
export { obsInstrumentation } from './instrumentation.js';
/** Name of a request no route matched: `GET <unmatched>`, in every obs adapter. */
export { UNMATCHED } from '@obs/core/http';
export type { ObsReactRouterOptions, ObsRequestInfo } from './options.js';

/**
 * `@obs/react-router`: one line to trace a React Router framework-mode app (7.9.5+, 8.x) into obs,
 * through React Router's own instrumentation API (on 7.x and 8.0, `obsMiddleware()` in the root
 * route adds the route of every request and its status).
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
export { obsMiddleware, type ObsMiddlewareArgs, type ObsMiddlewareFunction } from './middleware.js';
/** Name of a request no route matched: `GET <unmatched>`, in every obs adapter. */
export { UNMATCHED } from '@obs/core/http';
export type { ObsReactRouterOptions, ObsRequestInfo } from './options.js';

/**
 * `@obs/nuxt`: one line to trace a Nuxt 4 (or any Nitro 2) server into obs, as a Nitro server
 * plugin: each request one trace named after the route Nitro matched (`POST /api/chat/:id`), with
 * its input, output (server-sent events reassembled as they stream), errors and `identify`'s user
 * and session on every span.
 *
 * @example
 * ```ts
 * // server/plugins/obs.ts
 * import { obsNitroPlugin } from '@obs/nuxt';
 * export default defineNitroPlugin(obsNitroPlugin());
 * ```
 *
 * @packageDocumentation
 */
export { obsNitroPlugin } from './plugin.js';
/** Name of a request no route matched: `GET <unmatched>`, in every obs adapter. */
export { UNMATCHED } from '@obs/core/http';
export { getRequestObservation } from './request-observation.js';
export type { ObsNuxtOptions } from './options.js';

/**
 * `@obs/fastify`: one line to trace a Fastify 4 or 5 app into obs.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { obsPlugin } from '@obs/fastify';
 *
 * const app = Fastify();
 * await app.register(obsPlugin, { identify: (request) => ({ userId: request.headers['x-user-id'] as string }) });
 * app.post('/chat/:id', async (request) => ({ answer: await answer(request.body) }));
 * await app.listen({ port: 3000 });
 * ```
 *
 * @packageDocumentation
 */
export { obsPlugin } from './plugin.js';
/** Name of a request no route matched: `GET <unmatched>`, in every obs adapter. */
export { UNMATCHED } from '@obs/core/http';
export { getRequestObservation } from './request-observation.js';
export type { ObsFastifyOptions } from './options.js';

/**
 * `@obs/koa`: one line to trace a Koa 2 or 3 app into obs.
 *
 * @example
 * ```ts
 * import Koa from 'koa';
 * import Router from '@koa/router';
 * import { obsMiddleware } from '@obs/koa';
 *
 * const app = new Koa();
 * app.use(obsMiddleware({ identify: (ctx) => ({ userId: ctx.get('x-user-id') || undefined }) }));
 * const router = new Router();
 * router.post('/chat/:id', async (ctx) => (ctx.body = { answer: await answer(ctx.params.id) }));
 * app.use(router.routes());
 * app.listen(3000);
 * ```
 *
 * @packageDocumentation
 */
export { obsMiddleware } from './middleware.js';
/** Name of a request no route matched: `GET <unmatched>`, in every obs adapter. */
export { UNMATCHED } from '@obs/core/http';
export { getRequestObservation } from './request-observation.js';
export type { ObsKoaOptions } from './options.js';

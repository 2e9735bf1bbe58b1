/**
 * `@obs/express`: one line to trace an Express 4 or 5 app into obs.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { obsErrorHandler, obsMiddleware } from '@obs/express';
 *
 * const app = express();
 * app.use(obsMiddleware({ identify: (req) => ({ userId: req.user?.id }) }));
 * app.use(express.json());
 * app.post('/chat/:id', async (req, res) => res.json({ answer: await answer(req.body) }));
 * app.use(obsErrorHandler());
 * ```
 *
 * @packageDocumentation
 */
export { obsMiddleware } from './middleware.js';
export { obsErrorHandler } from './error-handler.js';
export { getRequestObservation } from './request-observation.js';
/** Name of a request that no route (and no mounted path) answered: `GET <unmatched>`. */
export { UNMATCHED } from '@obs/core/http';
export type { ObsExpressOptions } from './options.js';

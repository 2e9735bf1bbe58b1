/**
 * `@obs/hono`: one line to trace a Hono app into obs, on Node.js (`@hono/node-server`), Bun, Deno
 * and Cloudflare Workers.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { obs } from '@obs/hono';
 *
 * const app = new Hono();
 * app.use(obs({ identify: (c) => ({ userId: c.req.header('x-user-id') }) }));
 * app.post('/chat/:id', async (c) => c.json({ answer: await answer(await c.req.json()) }));
 * export default app;
 * ```
 *
 * @packageDocumentation
 */
export { obs } from './middleware.js';
/** Name of a request no route matched: `GET <unmatched>`, in every obs adapter. */
export { UNMATCHED } from '@obs/core/http';
export { getRequestObservation } from './request-observation.js';
export type { ObsHonoOptions } from './options.js';

/**
 * The Koa app the suites run, serving the routes of the Node.js adapters' shared scenarios
 * (tests/support/node-adapter-scenarios.ts) as Koa apps are written: app-level auth that sets
 * `ctx.state.user`, a body parser, `@koa/router` routers (one with a prefix and route-level auth),
 * a child observation, server-sent events as a piped stream and written to the raw response, a
 * text body, errors thrown (`ctx.throw(404)` and a crash), an error-handling middleware that
 * answers by itself and reports through `ctx.app.emit('error')`, a health check.
 */
import { PassThrough } from 'node:stream';
import { bodyParser } from '@koa/bodyparser';
import Router, { type RouterMiddleware } from '@koa/router';
import { startActiveObservation } from '@obs/core';
import type Koa from 'koa';

export const answer = (message: string) =>
  startActiveObservation('answer', async (o) => {
    o.update({ input: message, output: `echo: ${message}` });
    return `echo: ${message}`;
  });

/** The app's middleware and routes, used after the obs middleware. */
export function routes(app: Koa): void {
  app.use(bodyParser());
  // App-level auth: anyone may call, `x-user` says who.
  app.use(async (ctx, next) => {
    const user = ctx.get('x-user');
    if (user) ctx.state.user = { id: user };
    await next();
  });

  const api = new Router({ prefix: '/api' });
  // Route-level auth: a 401 unless someone is signed in.
  const signedIn: RouterMiddleware = async (ctx, next) => {
    if (!ctx.state.user) ctx.throw(401, 'who are you?');
    await next();
  };
  api.post('/chat/:id', signedIn, async (ctx) => {
    const { message } = ctx.request.body as { message: string };
    ctx.body = { answer: await answer(message) };
  });
  api.get('/profile', async (ctx) => {
    ctx.body = { user: ctx.state.user?.id, greeting: await answer('profile') };
  });

  const router = new Router();
  router.get('/sse', async (ctx) => {
    const stream = new PassThrough();
    ctx.type = 'text/event-stream';
    ctx.body = stream;
    void (async () => {
      for (const token of ['one', 'two', 'three']) {
        await answer(token);
        stream.write(`data: ${token}\n\n`);
      }
      stream.end();
    })();
  });
  router.get('/raw-sse', async (ctx) => {
    ctx.respond = false;
    ctx.res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const token of ['a', 'b']) ctx.res.write(`data: ${token}\n\n`);
    ctx.res.end();
  });
  router.get('/text', (ctx) => {
    ctx.body = 'plain words';
  });
  router.get('/crash', () => {
    throw new Error('database on fire');
  });
  router.get('/tickets/:id', (ctx) => ctx.throw(404, 'no such ticket'));
  router.get('/health', (ctx) => {
    ctx.body = 'ok';
  });

  // A part of the app with its own error handler: it answers with a body of its own and reports.
  const billing = new Router({ prefix: '/billing' });
  billing.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const status = (err as { status?: number }).status === 402 ? 402 : 503;
      ctx.status = status;
      ctx.body = { error: status === 402 ? 'pay first' : 'billing is down' };
      ctx.app.emit('error', err, ctx);
    }
  });
  billing.get('/charge', () => {
    throw new Error('card processor timed out');
  });
  billing.get('/unpaid', (ctx) => ctx.throw(402, 'invoice 7 unpaid'));

  app.use(api.routes()).use(router.routes()).use(billing.routes());
}

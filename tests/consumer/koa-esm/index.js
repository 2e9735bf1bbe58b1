// A Koa 3 ESM app with @koa/router as a new user writes it, with the packed tarballs installed.
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import { getObsHandle, startActiveObservation } from '@obs/core';
import { obsMiddleware } from '@obs/koa';
import Koa from 'koa';

const app = new Koa();
app.use(obsMiddleware({ identify: (ctx) => ({ userId: ctx.get('x-user') || 'anonymous' }) }));
app.use(bodyParser());
const router = new Router();
router.post('/chat/:id', async (ctx) => {
  const answer = await startActiveObservation('answer', async (span) => {
    span.update({ input: ctx.request.body, output: 'koa answer' });
    return 'koa answer';
  });
  ctx.body = { answer };
});
app.use(router.routes());
const server = await new Promise((resolve) => {
  const s = app.listen(0, '127.0.0.1', () => resolve(s));
});
const res = await fetch(`http://127.0.0.1:${server.address().port}/chat/1`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-user': 'koa-user' },
  body: JSON.stringify({ question: 'hi' }),
});
const body = await res.json();
await new Promise((r) => server.close(r));
await getObsHandle()?.shutdown();
console.log(`RESULT ${JSON.stringify({ traceId: res.headers.get('x-obs-trace-id'), body })}`);

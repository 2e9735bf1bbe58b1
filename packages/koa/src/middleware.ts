import { context } from '@opentelemetry/api';
import { getObsHandle, initObs } from '@obs/core';
import { captureWrites, NodeHttpObserver, NodeResponseCapture } from '@obs/core/http';
import { AdapterGuard, warnMisplacedOptions } from '@obs/core/kit';
import type { Context, Middleware, Next } from 'koa';
import { keepHeader, routeOf, watchRoute } from './koa-internals.js';
import { KoaRequest } from './koa-request.js';
import type { ObsKoaOptions } from './options.js';

/**
 * Traces every request as a root observation named `METHOD /route/:param` (the `@koa/router`
 * route it matched), with its input (the parsed body, else the query), output (the body's value,
 * text, or streamed text such as server-sent events, reassembled as it is sent), errors (judged by
 * the status the response ends with), and `identify(ctx)`'s user and session on every span created
 * while handling it. Put it first: `app.use(obsMiddleware())`. Sets tracing up itself when nothing has.
 *
 * @example
 * ```ts
 * const app = new Koa();
 * app.use(obsMiddleware({ identify: (ctx) => ({ userId: ctx.state.user?.id }) }));
 * app.use(bodyParser()).use(router.routes());
 * ```
 */
export function obsMiddleware(options: ObsKoaOptions = {}): Middleware {
  warnMisplacedOptions('obsMiddleware', options);
  const { obs: init, ...http } = options;
  const guard = new AdapterGuard('@obs/koa');
  const layer = new NodeHttpObserver<Context, Context, KoaRequest>(http, {
    adapter: '@obs/koa',
    // identify waits for the router to match (app-level auth ran), or for the end.
    deferIdentify: true,
    create: (ro, req, res, path, adapter) => new KoaRequest(ro, req, res, path, adapter),
  });
  const recordOutput = http.captureOutput !== false;
  const apps = new WeakSet<object>();
  let ready = false;

  function start(ctx: Context): KoaRequest | undefined {
    if (!ready) {
      if (!getObsHandle()) initObs(init);
      ready = true;
    }
    // ignore, name, identify and the capture options get the ctx.
    const request = layer.start(ctx.req, ctx.res, ctx);
    if (!request) return undefined;
    request.link(ctx, ctx);
    watchRoute(ctx, () => request.ro.allowIdentify());
    // Koa removes every header before it answers an error: the trace id stays.
    if (layer.http.traceIdHeader) keepHeader(ctx.res, layer.http.traceIdHeader);
    if (recordOutput && ctx.method !== 'HEAD') {
      request.output = new NodeResponseCapture(request.ro, ctx.res, ctx);
      captureWrites(ctx.res, request.output, guard);
    }
    // Errors an error-handling middleware catches and reports (`ctx.app.emit('error', err, ctx)`,
    // as Koa's docs advise) never reach this middleware: the app's event says them.
    if (!apps.has(ctx.app)) {
      apps.add(ctx.app);
      ctx.app.on('error', (err: unknown, errCtx?: Context) => guard.run(() => errCtx && layer.requestOf(errCtx.req)?.noteError(err)));
    }
    return request;
  }

  /** After the app's middleware: the route, and the body as a value before Koa serialises it. */
  function end(ctx: Context, request: KoaRequest): void {
    const route = routeOf(ctx);
    if (route) request.ro.setRoute(route);
    else request.ro.setUnmatched();
    request.ro.allowIdentify();
    const body: unknown = ctx.body;
    if (request.output && isValue(body)) request.output.value(body);
  }

  const observed = async (ctx: Context, next: Next): Promise<void> => {
    const request = start(ctx);
    if (!request) return next();
    try {
      // The rest of the app runs with the root active.
      await context.with(request.ro.context, next);
    } catch (err) {
      // Koa answers it (err.status, else 500): the status the response ends with judges it.
      guard.run(() => request.noteError(err));
      throw err;
    } finally {
      guard.run(() => end(ctx, request));
    }
  };

  return function obsMiddleware(ctx, next) {
    return guard.around((next) => observed(ctx, next), next);
  };
}

/** A body Koa serialises as JSON: recorded as the value, not as its text. */
function isValue(body: unknown): boolean {
  if (body === null || typeof body !== 'object') return typeof body === 'number' || typeof body === 'boolean';
  if (ArrayBuffer.isView(body) || body instanceof ArrayBuffer) return false;
  // A stream (piped by Koa): its writes are the output.
  return typeof (body as { pipe?: unknown }).pipe !== 'function';
}

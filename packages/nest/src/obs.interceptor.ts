import { Inject, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { context } from '@opentelemetry/api';
import { errorMessage, logger } from '@obs/core';
import { from, mergeMap, Observable } from 'rxjs';
import { isClientError } from './exceptions.js';
import { ObsRuntime } from './obs-runtime.js';
import type { TrackedRequest } from './request-tracker.js';
import { captureStreamableFile, isStreamableFile, sseEventText } from './response-capture.js';
import { NestRouteResolver } from './route-resolver.js';

/**
 * Runs after guards, knowing the handler: names the root after the route, records the input,
 * runs `identify` (waiting for it when async, so the handler's spans carry its attributes),
 * runs the handler in the request's context, records the result and errors. Never changes what
 * the handler returns or throws.
 */
@Injectable()
export class ObsInterceptor implements NestInterceptor {
  constructor(
    @Inject(ObsRuntime) private readonly runtime: ObsRuntime,
    @Inject(NestRouteResolver) private readonly routes: NestRouteResolver,
  ) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    const http = ctx.switchToHttp();
    const req = http.getRequest();
    const res = http.getResponse();
    // Normally the middleware started it; this covers requests no middleware saw.
    const tracked = this.runtime.tracker.begin(req, res);
    if (!tracked) return next.handle();
    let waiting: void | Promise<void> = undefined;
    let sse = false;
    try {
      tracked.req = req;
      tracked.res = res;
      const routes = this.routes.describe(ctx.getClass(), ctx.getHandler());
      sse = routes.sse;
      if (!tracked.routed) {
        tracked.routed = true;
        tracked.ro.setRoute(routes.routeFor(tracked.path, req));
      }
      tracked.captureInput();
      // Guards ran: identify now, waiting for an async one so the handler's spans carry it.
      waiting = tracked.ro.identify();
    } catch (err) {
      logger.warn(`@obs/nest: ${errorMessage(err)}`);
    }
    const run = () => recordResult(handleInContext(tracked, next), tracked, sse);
    return waiting ? from(waiting).pipe(mergeMap(run)) : run();
  }
}

/** `next.handle()` with the request's context active (Nest binds the handler's async scope there). */
function handleInContext(tracked: TrackedRequest, next: CallHandler): Observable<unknown> {
  const ctx = tracked.ro.context;
  // Usually the middleware's context flowed here already.
  return context.active() === ctx ? next.handle() : context.with(ctx, () => next.handle());
}

/**
 * Passes the handler's result through, recording what it produced (value, Observable emissions,
 * file, SSE events) and its errors. One Observable layer rather than an operator chain: this
 * runs on every request.
 */
function recordResult(source: Observable<unknown>, tracked: TrackedRequest, sse: boolean): Observable<unknown> {
  const { ro } = tracked;
  return new Observable<unknown>((subscriber) =>
    source.subscribe({
      next(value) {
        try {
          if (sse) {
            const text = sseEventText(value);
            if (text !== undefined) ro.addOutputChunk(text, tracked.res, 'text/event-stream');
          } else if (isStreamableFile(value)) captureStreamableFile(value, ro, tracked.res);
          else ro.setOutput(value, tracked.res);
        } catch (err) {
          logger.warn(`@obs/nest: could not record the output: ${errorMessage(err)}`);
        }
        subscriber.next(value);
      },
      error(err: unknown) {
        // Nest's exception filters answer it as usual; 4xx HttpExceptions are answers, not errors.
        if (!isClientError(err)) ro.recordError(err);
        subscriber.error(err);
      },
      complete() {
        subscriber.complete();
      },
    }),
  );
}

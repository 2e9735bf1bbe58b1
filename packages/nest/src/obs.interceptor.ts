import { Inject, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { context } from '@opentelemetry/api';
import { from, mergeMap, Observable, Subscriber } from 'rxjs';
import { guard } from './guard.js';
import { ObsRuntime } from './obs-runtime.js';
import type { NestRequest } from './request-tracker.js';
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
  /** `captureOutput: false`: results pass through unread (no SSE event text, no file tap). */
  private readonly recordsOutput: boolean;

  constructor(
    @Inject(ObsRuntime) private readonly runtime: ObsRuntime,
    @Inject(NestRouteResolver) private readonly routes: NestRouteResolver,
  ) {
    this.recordsOutput = runtime.tracker.layer.http.options.captureOutput !== false;
  }

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    // What switchToHttp().getRequest()/getResponse() return, without the closures switchToHttp() makes.
    const req = ctx.getArgByIndex(0);
    const res = ctx.getArgByIndex(1);
    // Normally the middleware started it; this covers requests no middleware saw.
    const tracked = this.runtime.tracker.begin(req, res);
    if (!tracked) return next.handle();
    let output: OutputKind = this.recordsOutput ? 'value' : 'none';
    const waiting = guard.run(() => {
      tracked.link(req, res);
      const routes = this.routes.describe(ctx.getClass(), ctx.getHandler());
      if (routes.sse && this.recordsOutput) output = 'sse';
      if (!tracked.routed) {
        tracked.routed = true;
        tracked.ro.setRoute(routes.routeFor(tracked.path, req));
      }
      tracked.recordInput();
      // Guards ran: identify now, waiting for an async one so the handler's spans carry it.
      return tracked.ro.identify();
    });
    if (waiting) return from(waiting).pipe(mergeMap(() => recordResult(handleInContext(tracked, next), tracked, output)));
    return recordResult(handleInContext(tracked, next), tracked, output);
  }
}

/** `next.handle()` with the request's context active (Nest binds the handler's async scope there). */
function handleInContext(tracked: NestRequest, next: CallHandler): Observable<unknown> {
  const ctx = tracked.ro.context;
  // Usually the middleware's context flowed here already.
  return context.active() === ctx ? next.handle() : context.with(ctx, () => next.handle());
}

/** What the handler's result is recorded as: its value(s), its `@Sse()` events' text, or nothing. */
type OutputKind = 'value' | 'sse' | 'none';

/**
 * Passes the handler's result through, recording what it produced (value, Observable emissions,
 * file, SSE events) and its errors. One Observable layer with one subscriber (as RxJS's own
 * operators do) rather than an operator chain or a wrapped observer: this runs on every request.
 */
function recordResult(source: Observable<unknown>, tracked: NestRequest, output: OutputKind): Observable<unknown> {
  return new Observable<unknown>((subscriber) => {
    // The recorder joins the subscriber's subscription: unsubscribing the one unsubscribes the other.
    source.subscribe(new ResultRecorder(subscriber, tracked, output));
  });
}

class ResultRecorder extends Subscriber<unknown> {
  constructor(
    destination: Subscriber<unknown>,
    private readonly tracked: NestRequest,
    private readonly output: OutputKind,
  ) {
    super(destination);
  }

  protected override _next(value: unknown): void {
    if (this.output !== 'none') this.record(value);
    this.destination.next(value);
  }

  private record(value: unknown): void {
    const { ro, res } = this.tracked;
    guard.run(() => {
      if (this.output === 'sse') {
        const text = sseEventText(value);
        if (text !== undefined) ro.addOutputChunk(text, res, 'text/event-stream');
      } else if (isStreamableFile(value)) captureStreamableFile(value, ro, res);
      else ro.setOutput(value, res);
    });
  }

  protected override _error(err: unknown): void {
    // Nest's exception filters answer it as usual; core judges it by the status they answer with
    // (a 4xx is the client's error, not the service's).
    this.tracked.noteError(err);
    super._error(err);
  }
}

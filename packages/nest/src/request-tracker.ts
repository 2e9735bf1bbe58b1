import { IncomingMessage, ServerResponse } from 'node:http';
import type { ObsHttpOptions } from '@obs/core';
import { NodeHttpObserver, NodeRequest, type NodeRequestLike, type NodeResponseLike } from '@obs/core/http';
import { platformRoute } from './route-resolver.js';

/**
 * What only Nest knows about a request core's Node.js layer observes: whether the interceptor
 * named it after its handler, and the platform's own request and response (Fastify's
 * `FastifyRequest`/`FastifyReply` around the raw ones), which guards, `identify` and
 * `captureInput` see.
 */
export class NestRequest extends NodeRequest {
  /** The interceptor set the route from the handler's metadata. */
  routed = false;

  /**
   * A request a guard refused never reached the interceptor: name it after the route the
   * platform matched. A 404 matched only the platform's catch-all, so it keeps its path.
   */
  protected override beforeEnd(statusCode: number | undefined): void {
    if (!this.routed && statusCode !== 404) this.ro.setRoute(platformRoute(this.req));
  }
}

/**
 * Finds or starts the request of the platform's raw Node.js request, so the middleware (which
 * sees the raw request under Fastify) and the interceptor (which sees the framework's) share one.
 * One tracker per `ObsModule`.
 */
export class RequestTracker {
  readonly layer: NodeHttpObserver<object, object, NestRequest>;

  constructor(options: ObsHttpOptions) {
    this.layer = new NodeHttpObserver<object, object, NestRequest>(options, {
      adapter: '@obs/nest',
      // Identify waits for guards: the interceptor runs it, else the end of the request.
      deferIdentify: true,
      create: (ro, req, res, path, adapter) => new NestRequest(ro, req, res, path, adapter),
    });
  }

  /**
   * Tells the request the platform's request and response when they wrap the raw ones, before
   * guards run: a request a guard refuses never reaches the interceptor, yet is named after the
   * route the platform matched and identified with what the guard left on the request.
   */
  link(req: unknown, res: unknown): void {
    const raw = rawOf(req);
    if (raw && raw !== req) this.layer.requestOf(raw)?.link(req, res);
  }

  /**
   * Starts the request's root observation, or returns the one started already (the interceptor
   * calls this too, for requests no middleware saw). Undefined when ignored.
   */
  begin(req: unknown, res: unknown): NestRequest | undefined {
    // The interceptor on Express: the middleware started it with this very request.
    const known = this.layer.requestOf(req);
    if (known) return known;
    const raw = rawOf(req);
    if (!raw || typeof raw !== 'object') return undefined;
    return this.layer.start(raw as NodeRequestLike & object, rawOf(res) as NodeResponseLike);
  }

  /** Starts the request's root observation from Express middleware, whose request and response are the raw ones. */
  beginRaw(req: unknown, res: unknown): NestRequest | undefined {
    return this.layer.start(req as NodeRequestLike & object, res as NodeResponseLike);
  }
}

/**
 * The raw Node.js request or response under a platform's own (Fastify's wrap them; Express's
 * are the raw ones). Express's are recognised first: looking up a `raw` they lack walks their
 * long prototype chains (the response is a dictionary-mode object), twice per request; it was
 * the second-largest obs item of Nest's CPU profile.
 */
function rawOf(x: unknown): unknown {
  if (x instanceof IncomingMessage || x instanceof ServerResponse) return x;
  return (x as { raw?: unknown } | null | undefined)?.raw ?? x;
}

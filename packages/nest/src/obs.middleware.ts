import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import { context } from '@opentelemetry/api';
import { errorMessage, logger } from '@obs/core/kit';
import { ObsRuntime } from './obs-runtime.js';
import type { RequestTracker } from './request-tracker.js';

/**
 * Starts the request's root observation before guards and pipes, and runs the rest of the
 * request with it active, so spans of guards and of everything after nest under it.
 */
@Injectable()
export class ObsRequestMiddleware implements NestMiddleware {
  constructor(@Inject(ObsRuntime) private readonly runtime: ObsRuntime) {}

  use(req: unknown, res: unknown, next: (error?: unknown) => void): void {
    const tracked = this.runtime.tracker.begin(req, res);
    if (!tracked) return next();
    context.with(tracked.ro.context, next);
  }
}

/** What is used of a platform's server instance: Fastify's `addHook`. */
interface HookableInstance {
  addHook?(name: 'onRequest', hook: (req: unknown, res: unknown, done: () => void) => void): unknown;
}

/**
 * On Fastify, Nest middleware runs on the raw Node.js request (through middie) and never sees
 * the `FastifyRequest` guards get. An `onRequest` hook, which runs after middie's and before
 * guards, links the two, so a request a guard refuses (which never reaches the interceptor)
 * is still named after its route (`routeOptions.url`) and identified with the request the guard
 * saw. Express middleware already has that request: nothing to do there.
 */
export function linkPlatformRequests(instance: HookableInstance | undefined, tracker: RequestTracker): void {
  if (typeof instance?.addHook !== 'function') return;
  try {
    instance.addHook('onRequest', (req, res, done) => {
      tracker.link(req, res);
      done();
    });
  } catch (err) {
    logger.warn(`@obs/nest: requests refused by a guard will be named by their path: ${errorMessage(err)}`);
  }
}

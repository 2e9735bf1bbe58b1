import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import { context } from '@opentelemetry/api';
import { guard } from './guard.js';
import { ObsRuntime } from './obs-runtime.js';
import type { NestRequest, RequestTracker } from './request-tracker.js';

/**
 * Starts the request's root observation before guards and pipes, and runs the rest of the
 * request with it active, so spans of guards and of everything after nest under it.
 */
@Injectable()
export class ObsRequestMiddleware implements NestMiddleware {
  constructor(@Inject(ObsRuntime) private readonly runtime: ObsRuntime) {}

  use(req: unknown, res: unknown, next: (error?: unknown) => void): void {
    continueRequest(this.runtime.tracker.begin(req, res), next);
  }
}

/** Runs the rest of the request in its root observation's context (as it is when not observed). */
function continueRequest(tracked: NestRequest | undefined, next: (error?: unknown) => void): void {
  if (!tracked) return next();
  context.with(tracked.ro.context, next);
}

/** What is used of Express's app: `use`. */
interface UsableInstance {
  use?(handler: (req: unknown, res: unknown, next: (error?: unknown) => void) => void): unknown;
}

/**
 * On Express, mounts the request start on the app itself, ahead of every middleware Nest
 * registers, instead of through `consumer.apply()`: Nest's route-bound middleware adds, per
 * request, a path match of its wildcard with a parameter, a `WeakSet` entry and an exception
 * proxy (7 µs of CPU per request in the Nest bench, Node.js 22). For apps whose
 * wildcard covers every path (no global prefix, no URI versioning), where the two are the same.
 * Returns false when the platform is not Express (the caller applies `ObsRequestMiddleware`).
 */
export function mountOnExpress(adapter: PlatformAdapter | undefined, tracker: RequestTracker): boolean {
  if (adapter?.getType?.() !== 'express') return false;
  const instance = adapter.getInstance?.() as UsableInstance | undefined;
  if (typeof instance?.use !== 'function') return false;
  // Named: OpenTelemetry's express instrumentation calls its span `middleware - obsNestMiddleware`.
  instance.use(function obsNestMiddleware(req: unknown, res: unknown, next: (error?: unknown) => void) {
    continueRequest(tracker.beginRaw(req, res), next);
  });
  return true;
}

/** What is used of Nest's HTTP adapter. */
export interface PlatformAdapter {
  getType?(): string;
  getInstance?(): unknown;
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
  const addHook = instance?.addHook;
  if (typeof addHook !== 'function') return;
  guard.run(
    () =>
      addHook.call(instance, 'onRequest', (req, res, done) => {
        tracker.link(req, res);
        done();
      }),
    undefined,
    'requests refused by a guard are named by their path',
  );
}

import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import { context } from '@opentelemetry/api';
import { ObsRuntime } from './obs-runtime.js';

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

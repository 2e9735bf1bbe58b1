import { observedRequestOf } from '@obs/core/http';
import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express';

/**
 * Records the error of a request (thrown, rejected by an async handler in Express 5, or passed
 * to `next(err)`) on its root observation, then passes it on unchanged to the app's own error
 * handlers. Mount it after the routes and before your error handlers: `app.use(obsErrorHandler())`.
 * A response that ends 5xx (or never completes) makes the root level ERROR with the error's
 * message; an error the app answers with a 4xx is a client error and keeps the level.
 */
export function obsErrorHandler(): ErrorRequestHandler {
  // Four parameters: that is how Express recognises an error handler. Named explicitly: a bundler
  // renames a function expression that shadows the factory's name (esbuild: obsErrorHandler2).
  return Object.defineProperty(
    (err: unknown, req: Request, _res: Response, next: NextFunction): void => {
      observedRequestOf(req)?.noteError(err);
      next(err);
    },
    'name',
    { value: 'obsErrorHandler' },
  );
}

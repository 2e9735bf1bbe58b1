import { logger } from '../util/logger.js';
import { errorMessage } from '../tracing/record-error.js';

/**
 * Keeps an adapter's own bugs out of the app's requests: adapter code that throws (or rejects) is
 * reported in one line (later failures of the same adapter at debug level, so a bug hit by every
 * request does not flood the log) and the request is served as if obs were not there. Every
 * adapter's hooks go through one: no adapter writes its own `try`/`catch` around its work.
 *
 * @example
 * ```ts
 * const guard = new AdapterGuard('@obs/hono');
 * app.use((c, next) => guard.around((next) => observed(c, next), next));
 * fastify.addHook('onSend', (req, reply, payload, done) => {
 *   guard.run(() => recordOutput(req, payload));
 *   done(null, payload);
 * });
 * ```
 */
export class AdapterGuard {
  private reported = false;

  /** `adapter` prefixes the log line, e.g. `@obs/hono`. */
  constructor(readonly adapter: string) {}

  /**
   * Runs adapter code; a throw is reported and `fallback` returned instead. `lost` says what the
   * app goes without when it throws (default: the request is served without obs).
   */
  run<T>(fn: () => T): T | undefined;
  run<T>(fn: () => T, fallback: T, lost?: string): T;
  run<T>(fn: () => T, fallback?: T, lost?: string): T | undefined {
    try {
      return fn();
    } catch (err) {
      this.report(err, lost);
      return fallback;
    }
  }

  /** `run` for async adapter code: a throw or a rejection is reported and resolves to `fallback`. */
  async settle<T>(fn: () => T | PromiseLike<T>, fallback?: T, lost?: string): Promise<T | undefined> {
    try {
      return await fn();
    } catch (err) {
      this.report(err, lost);
      return fallback;
    }
  }

  /**
   * Runs `observed`, the adapter's code around the app's `next`, so the app sees only its own
   * outcome. If the adapter throws before calling `next`, `next` runs plainly; if it throws after,
   * the app's own result (or the app's own error) is what the caller gets. An error the app threw
   * and the adapter passed on is the app's, and is rethrown unchanged.
   */
  async around<T>(observed: (next: () => Promise<T>) => Promise<T>, next: () => Promise<T>): Promise<T> {
    let app: Promise<T> | undefined;
    let appFailed = false;
    let appError: unknown;
    const once = () =>
      (app ??= next().catch((err: unknown) => {
        appFailed = true;
        appError = err;
        throw err;
      }));
    try {
      return await observed(once);
    } catch (err) {
      // Only a started app can have failed: an adapter failure before it runs the app plainly.
      if (appFailed && err === appError) throw err;
      this.report(err);
      return app ?? next();
    }
  }

  /** Reports an adapter failure: one warning per adapter instance, then debug lines. */
  report(err: unknown, lost = 'the request is served without it'): void {
    const line = `${this.adapter}: internal error, ${lost}: ${errorMessage(err)}`;
    if (this.reported) return logger.debug(line);
    this.reported = true;
    logger.warn(`${line} (further internal errors of this adapter are logged at debug level; please report it)`);
  }
}

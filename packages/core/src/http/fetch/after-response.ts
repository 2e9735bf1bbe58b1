import { logger } from '../../util/logger.js';
import { errorMessage } from '../../tracing/record-error.js';
import type { FetchRequest } from './fetch-observer.js';

/** What the flush needs of the obs handle (`initObs()`'s `ObsHandle`). */
export interface Flushable {
  flush(): Promise<void>;
}

/** A platform's way to keep a function alive after its response (`ctx.waitUntil` on Workers and Vercel). */
export type WaitUntil = (promise: Promise<unknown>) => void;

let pending: Promise<void> | undefined;

/**
 * Flushes spans and scores, sharing one flush among the requests that end in the same turn of the
 * event loop (a busy server then sends one export, not one per request). Never rejects.
 */
export function flushSoon(handle: Flushable): Promise<void> {
  pending ??= new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => {
    pending = undefined;
    return handle.flush().catch((err: unknown) => logger.warn(`flush failed: ${errorMessage(err)}`));
  });
  return pending;
}

/**
 * Keeps the function alive, through the platform's `waitUntil`, until the request's root has
 * ended (with its body, or bounded by `unreadBodyMs` for a body nobody reads) and its spans are
 * on the server: on a runtime that freezes or ends the function once the response is sent
 * (Workers, Vercel, Netlify), the request's trace leaves before it does. The response itself is
 * never delayed. A `waitUntil` that throws is logged once; the flush runs regardless.
 */
export function flushAfterResponse(handle: Flushable, request: FetchRequest<Request, unknown>, waitUntil: WaitUntil): void {
  const work = request.done.then(() => flushSoon(handle));
  try {
    waitUntil(work);
  } catch (err) {
    logger.warnOnce('waitUntil', `waitUntil refused the flush after a response: ${errorMessage(err)}`);
  }
}

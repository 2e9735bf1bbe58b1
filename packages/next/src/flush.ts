import { logger } from '@obs/core/kit';
import { after } from 'next/server.js';

type WaitUntil = (promise: Promise<unknown>) => void;
type RequestContext = { get(): { waitUntil?: WaitUntil } | undefined };

/**
 * Keeps the function alive until `work` is done, after the response: Next's `after()` inside a request
 * (`work(true)` then runs once the response has closed), else the platform's `waitUntil`
 * (`globalThis[Symbol.for('@next/request-context')]`; `work(false)` runs at once), else it just runs.
 * On a serverless platform that freezes the function after responding, this is what makes the request's
 * spans leave before it does.
 */
export function runAfterResponse(work: (afterClose: boolean) => Promise<void>): void {
  try {
    after(() => work(true));
    return;
  } catch (err) {
    // Outside a request scope (e.g. a custom server or the Pages Router): the platform's waitUntil.
    logger.debug(`after() unavailable (${String(err)}); using waitUntil`);
  }
  keepAlive(work(false));
}

/** Hands `promise` to the platform's `waitUntil` when the request has one (Vercel and compatible hosts). */
export function keepAlive(promise: Promise<unknown>): void {
  try {
    const waitUntil = (globalThis as { [k: symbol]: RequestContext | undefined })[Symbol.for('@next/request-context')]?.get()?.waitUntil;
    if (typeof waitUntil === 'function') waitUntil(promise);
  } catch {
    // The promise runs regardless; waitUntil only extends the function's lifetime.
  }
}

/**
 * Waiting for something to arrive: a probe polled until it answers, with a timeout error that
 * says what was awaited and what the server holds.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { WaitOptions } from '../types.js';

/** Polls `probe` until it returns a truthy value (a throw counts as not yet). */
export async function waitFor<T>(probe: () => T | undefined | null | false, opts: WaitOptions, state: () => string): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const intervalMs = opts.intervalMs ?? 10;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = probe();
      if (value) return value;
      lastError = undefined;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const what = opts.description ? ` waiting for ${opts.description}` : '';
      const why = lastError === undefined ? '' : `; last probe error: ${(lastError as Error)?.message ?? String(lastError)}`;
      throw new Error(`obs local server: timed out after ${timeoutMs}ms${what}${why}. ${state()}`);
    }
    await sleep(intervalMs);
  }
}

/** Waiting for something, but not for ever. */
import { unref } from './unref.js';

/**
 * Settles when `work` does, or after `ms` at the latest (undefined then); never rejects. Its
 * timer does not keep the process alive: whoever needs the process open holds it otherwise.
 */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = unref(setTimeout(() => resolve(undefined), ms));
  });
  try {
    return await Promise.race([work.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

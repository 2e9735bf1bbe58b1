import { getObsHandle } from '@obs/core';
import { errorMessage, logger } from '@obs/core/kit';

type Closable = { close: (callback?: (err?: Error) => void) => unknown; once?: unknown };

const hooked = new WeakSet<object>();

/**
 * Makes `server.close(callback)` flush obs before calling back: an app that exits in that
 * callback (`server.close(() => process.exit(0))`) then loses none of the spans of the requests
 * the server finished. Without a callback the flush still runs when the server closes.
 */
export function flushOnServerClose(server: unknown): void {
  const s = server as Closable | undefined;
  if (!s || typeof s !== 'object' || typeof s.close !== 'function' || hooked.has(s)) return;
  hooked.add(s);
  const close = s.close;
  s.close = function closeThenFlush(this: Closable, callback?: (err?: Error) => void) {
    return close.call(this, (err?: Error) => {
      const done = () => {
        if (typeof callback === 'function') callback.call(this, err);
      };
      flushQuietly().then(done, done);
    });
  };
}

async function flushQuietly(): Promise<void> {
  try {
    await getObsHandle()?.flush();
  } catch (err) {
    logger.warn(`@obs/express: flush on server close failed: ${errorMessage(err)}`);
  }
}

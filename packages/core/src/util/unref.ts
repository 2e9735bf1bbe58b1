/**
 * The one way obs lets go of the event loop. A timer or socket of obs's own (a retry wait, a line
 * the outage log owes, a request's timeout, a request's socket, a sweep) never keeps a process
 * alive: whoever waits for obs's work (a flush, the exit flush) holds the process open with its
 * own deadline instead. Browsers and edge runtimes have nothing to unref.
 */

/** `handle` (a timer, a socket, a worker), unref'd where the runtime can. */
export function unref<T>(handle: T): T {
  const h = handle as { unref?: unknown } | undefined;
  if (typeof h?.unref === 'function') (h as { unref(): void }).unref();
  return handle;
}

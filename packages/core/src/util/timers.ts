/**
 * Timers that never keep a Node.js process alive: obs's waits (a flush interval, a bounded wait, a
 * retry's pause) belong to work someone awaits or to a process that may end meanwhile, and the
 * exit hooks bound what is left. One helper, since `unref` exists only on Node's timers.
 */

/** `timer`, unref'd where the runtime can (Node.js); browsers and edge runtimes have nothing to unref. */
export function unref<T>(timer: T): T {
  const t = timer as { unref?: () => void } | undefined;
  if (typeof t?.unref === 'function') t.unref();
  return timer;
}

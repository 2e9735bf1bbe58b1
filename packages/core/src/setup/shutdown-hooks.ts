import { logger } from '../util/logger.js';

type Proc = {
  once(event: string, fn: (...args: unknown[]) => void): void;
  listenerCount(event: string): number;
  kill(pid: number, signal: string): void;
  pid: number;
};

/**
 * Flushes on `beforeExit`, SIGTERM and SIGINT so a clean shutdown loses nothing. A signal we
 * intercepted is raised again after the flush when nobody else handles it, so the process
 * still ends the way it would have without us.
 */
export function installShutdownHooks(flush: () => Promise<void>, deadlineMs?: number): void {
  const proc = (globalThis as { process?: Proc }).process;
  if (!proc || typeof proc.once !== 'function') return;
  try {
    install(proc, deadlineMs === undefined ? flush : () => within(flush, deadlineMs + 500));
  } catch (err) {
    // Edge runtimes expose a `process` whose `once` throws: no hooks there, never an error.
    logger.debug(`no shutdown hooks on this runtime: ${String(err)}`);
  }
}

function install(proc: Proc, flush: () => Promise<void>): void {
  let flushedOnBeforeExit = false;
  proc.once('beforeExit', () => {
    if (flushedOnBeforeExit) return;
    flushedOnBeforeExit = true;
    void flush().catch((err: unknown) => logger.error(`flush on exit failed: ${String(err)}`));
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    proc.once(signal, () => {
      const othersHandle = proc.listenerCount(signal) > 0;
      flush()
        .catch((err: unknown) => logger.error(`flush on ${signal} failed: ${String(err)}`))
        .finally(() => {
          if (!othersHandle) proc.kill(proc.pid, signal);
        });
    });
  }
}

/** `flush()`, but settled after `ms` at the latest (its own deadline normally comes first). */
function within(flush: () => Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    (timer as { unref?: () => void }).unref?.();
  });
  return Promise.race([flush(), late]).finally(() => clearTimeout(timer));
}

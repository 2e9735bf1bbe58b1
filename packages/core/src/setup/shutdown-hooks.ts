/**
 * The process's end, as obs takes part in it: `beforeExit` (the loop ran out of work: nothing of
 * obs's holds it open) gives everything one last try within the deadline, SIGTERM and SIGINT
 * drain within it, and a signal obs intercepted is raised again afterwards when nobody else
 * handles it, so the process still ends the way it would have without obs.
 */
import { logger } from '../util/logger.js';
import { within } from '../util/within.js';

type Proc = {
  once(event: string, fn: (...args: unknown[]) => void): void;
  listenerCount(event: string): number;
  kill(pid: number, signal: string): void;
  pid: number;
};

/** What the hooks run: each bounds its own wait (`drainWithin`). */
export interface ShutdownDrains {
  /** The exit flush (`beforeExit`): one last try of everything, then what failed is dropped (one line). */
  exit(): Promise<unknown>;
  /** SIGTERM/SIGINT: deliver what can be within the deadline, then drop the rest (one line). */
  signal(name: 'SIGTERM' | 'SIGINT'): Promise<unknown>;
}

/** Installs the hooks; `deadlineMs` is a safety net past the drains' own deadline. */
export function installShutdownHooks(drains: ShutdownDrains, deadlineMs: number): void {
  const proc = (globalThis as { process?: Proc }).process;
  if (!proc || typeof proc.once !== 'function') return;
  try {
    install(proc, drains, deadlineMs + 500);
  } catch (err) {
    // Edge runtimes expose a `process` whose `once` throws: no hooks there, never an error.
    logger.debug(`no shutdown hooks on this runtime: ${String(err)}`);
  }
}

function install(proc: Proc, drains: ShutdownDrains, safetyMs: number): void {
  proc.once('beforeExit', () => {
    void within(drains.exit(), safetyMs);
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    proc.once(signal, () => {
      const othersHandle = proc.listenerCount(signal) > 0;
      void within(drains.signal(signal), safetyMs).then(() => {
        if (!othersHandle) proc.kill(proc.pid, signal);
      });
    });
  }
}

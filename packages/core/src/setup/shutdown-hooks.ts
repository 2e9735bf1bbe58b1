/**
 * The process's end, as obs takes part in it: `beforeExit` (the loop ran out of work: nothing of
 * obs's holds it open) gives everything one last try within the deadline, SIGTERM and SIGINT
 * drain within it, and a signal obs intercepted is raised again afterwards when nobody else
 * handles it, so the process still ends the way it would have without obs. While a signal's drain
 * waits, a second SIGINT or SIGTERM stops it at once (one line counts what was dropped) and is
 * raised again the same way: Ctrl-C twice always quits now.
 */
import { logger } from '../util/logger.js';
import { within } from '../util/within.js';

type Proc = {
  once(event: string, fn: (...args: unknown[]) => void): void;
  removeListener(event: string, fn: (...args: unknown[]) => void): void;
  listenerCount(event: string): number;
  kill(pid: number, signal: string): void;
  pid: number;
};

/** The signals obs drains on. */
export type Signal = 'SIGTERM' | 'SIGINT';
const SIGNALS: readonly Signal[] = ['SIGTERM', 'SIGINT'];

/** What the hooks run: each bounds its own wait (`drainWithin`). */
export interface ShutdownDrains {
  /** The exit flush (`beforeExit`): one last try of everything, then what failed is dropped (one line). */
  exit(): Promise<unknown>;
  /**
   * SIGTERM/SIGINT: deliver what can be within the deadline, then drop the rest (one line);
   * `interrupt` resolves (with why) when a second signal asks to quit now.
   */
  signal(name: Signal, interrupt: Promise<string>): Promise<unknown>;
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
  proc.once('beforeExit', () => void within(drains.exit(), safetyMs));
  let draining = false;
  for (const signal of SIGNALS) {
    proc.once(signal, () => {
      // The other signal during a drain: the drain's own listener takes it as the second one.
      if (draining) return;
      draining = true;
      const othersHandle = proc.listenerCount(signal) > 0;
      // While the drain waits, a second signal quits now: obs listens for it, so the runtime's
      // default (an exit without a word) does not come first.
      let second: Signal | undefined;
      let quit!: (why: string) => void;
      const interrupt = new Promise<string>((resolve) => (quit = resolve));
      const listeners = SIGNALS.map((again) => {
        const listener = () => {
          second = again;
          quit(`a second ${again}`);
        };
        proc.once(again, listener);
        return [again, listener] as const;
      });
      void within(drains.signal(signal, interrupt), safetyMs).then(() => {
        for (const [again, listener] of listeners) proc.removeListener(again, listener);
        const raise = second ?? signal;
        if (second ? proc.listenerCount(second) === 0 : !othersHandle) proc.kill(proc.pid, raise);
      });
    });
  }
}

/**
 * `@obs/local-server/freeze`: the freeze harness. A serverless platform freezes a function's process
 * the instant an invocation settles (Lambda: the handler's result handed back; Vercel and Workers:
 * the response sent and every `waitUntil` promise settled) and thaws it only for the next one, if
 * ever. The harness does the same to a real child process: the child says an invocation settled
 * (`settleAndFreeze`, in the child: one line on file descriptor 3, then SIGSTOP to itself, so not
 * one more instruction of it runs), or the test says so for a process that cannot (`notify`, then
 * the harness sends the SIGSTOP); `thaw()` sends SIGCONT for the next invocation, `kill()` SIGKILL
 * at the end. What reached the local obs server while the process was frozen is what a platform
 * would have kept. Linux only (the stopped state is read from `/proc`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';

/** A line the process under the harness sent: `{ type: 'settled', ... }` and whatever else it says. */
export interface FreezeMessage {
  type: string;
  [key: string]: unknown;
}

/** Options of {@link FreezeHarness.spawn}. */
export interface FreezeSpawnOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * In the process under the harness: tells the harness `message` (one JSON line on file descriptor
 * 3) and stops the process at once (SIGSTOP to itself). It runs again when the harness thaws it.
 */
export function settleAndFreeze(message: FreezeMessage): void {
  writeSync(3, `${JSON.stringify(message)}\n`);
  process.kill(process.pid, 'SIGSTOP');
}

/** The harness's end of one process. */
export class FreezeHarness {
  private readonly messages: FreezeMessage[] = [];
  private readonly waiters: Array<() => void> = [];
  private out = '';
  private exited = false;
  /** How many times the process was frozen (a count per invocation). */
  freezes = 0;

  private constructor(
    readonly pid: number,
    private readonly child?: ChildProcess,
  ) {
    if (!child) return;
    child.stdout?.on('data', (d: Buffer) => (this.out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (this.out += d.toString()));
    child.on('exit', () => {
      this.exited = true;
      this.wake();
    });
    let pending = '';
    (child.stdio[3] as Readable | undefined)?.on('data', (d: Buffer) => {
      pending += d.toString();
      for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        if (line.trim()) this.notify(JSON.parse(line) as FreezeMessage);
      }
    });
  }

  /** Starts `command` with a message channel on file descriptor 3 (for `settleAndFreeze`) and its stdin open for `send`. */
  static spawn(command: string, args: string[], options: FreezeSpawnOptions = {}): FreezeHarness {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
    if (child.pid === undefined) throw new Error(`could not start ${command}`);
    return new FreezeHarness(child.pid, child);
  }

  /** A process started some other way (e.g. `workerd` under Miniflare): its messages come through `notify`. */
  static attach(pid: number): FreezeHarness {
    return new FreezeHarness(pid);
  }

  /** A message from the process (read from its channel, or passed on by the test). */
  notify(message: FreezeMessage): void {
    this.messages.push(message);
    this.wake();
  }

  /** Sends one JSON line to the process's stdin (e.g. the next invocation). */
  send(value: unknown): void {
    (this.child?.stdin as Writable | undefined)?.write(`${JSON.stringify(value)}\n`);
  }

  /** The next message of `type`, waiting at most `timeoutMs`. */
  async next(type: string, timeoutMs = 15_000): Promise<FreezeMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.messages.findIndex((m) => m.type === type);
      if (i !== -1) return this.messages.splice(i, 1)[0]!;
      if (this.exited) throw new Error(`the process exited before saying ${type}:\n${this.out}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${type} from the process in ${timeoutMs} ms:\n${this.out.slice(-4000)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for the next `settled` and makes sure the process is frozen (it froze itself, or is stopped now). */
  async settled(timeoutMs?: number): Promise<FreezeMessage> {
    const message = await this.next('settled', timeoutMs);
    await this.freeze();
    return message;
  }

  /** Stops the process unless it stopped itself, and waits until it is stopped. */
  async freeze(): Promise<void> {
    const started = Date.now();
    let signalled = false;
    while (!this.isStopped()) {
      // A process that freezes itself is stopped within a moment of saying so; an attached one is stopped at once.
      if (!signalled && (!this.child || Date.now() - started > 20)) {
        process.kill(this.pid, 'SIGSTOP');
        signalled = true;
      }
      if (Date.now() - started > 5000) throw new Error(`process ${this.pid} did not stop`);
      await new Promise((r) => setTimeout(r, 1));
    }
    this.freezes++;
  }

  /** Lets the process run again (the next invocation). */
  thaw(): void {
    process.kill(this.pid, 'SIGCONT');
  }

  /** Whether the process is stopped now (`T` in `/proc/<pid>/stat`). */
  isStopped(): boolean {
    try {
      const stat = readFileSync(`/proc/${this.pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2)[0] === 'T';
    } catch {
      return false;
    }
  }

  /** SIGKILL, as a platform reclaims a frozen sandbox: nothing of the process runs again. */
  async kill(): Promise<void> {
    if (this.exited) return;
    try {
      process.kill(this.pid, 'SIGKILL');
    } catch {
      return;
    }
    if (!this.child) return;
    const deadline = Date.now() + 5000;
    while (!this.exited && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  }

  /** What the process wrote to stdout and stderr. */
  output(): string {
    return this.out;
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}

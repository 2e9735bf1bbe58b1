/**
 * The published CLI (`dist/cli.js`) as a child process, for tests on the wire: started on a free
 * port, its output collected, its resident memory read from /proc, stopped with SIGTERM. And
 * OTLP/JSON export bodies of many spans, made quickly.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
export const CLI_BUILT = existsSync(CLI);
/** Whether a process's resident memory can be read (Linux). */
export const CAN_READ_RSS = existsSync('/proc/self/status');

/** A running CLI. */
export interface CliProcess {
  url: string;
  pid: number;
  output(): { stdout: string; stderr: string };
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Resolves with the exit code once the process ends by itself. */
  exited: Promise<number | null>;
}

/**
 * Runs the CLI with `--port 0` and these arguments; resolves once it listens. `shell` wraps the
 * command (`ulimit -f 64; exec "$@"`), for limits set before Node.js starts.
 */
export async function startCli(args: string[], options: { env?: Record<string, string>; shell?: string } = {}): Promise<CliProcess> {
  const command = [process.execPath, CLI, '--port', '0', ...args];
  const child = options.shell
    ? spawn('sh', ['-c', options.shell, 'sh', ...command], {
        env: { ...process.env, OBS_LOCAL_DATA: '', ...options.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawn(command[0]!, command.slice(1), {
        env: { ...process.env, OBS_LOCAL_DATA: '', ...options.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    void exited.then((code) => reject(new Error(`the CLI exited with ${code}: ${stderr}`)));
    const poll = setInterval(() => {
      const found = /listening on (http:\/\/[^\s:]+:\d+)/.exec(stdout)?.[1];
      if (found) {
        clearInterval(poll);
        resolve(found.replace('//0.0.0.0:', '//127.0.0.1:'));
      }
    }, 20);
  });
  return {
    url,
    pid: child.pid!,
    exited,
    output: () => ({ stdout, stderr }),
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Runs the CLI to its end (it is expected to refuse to start): its exit code and output. */
export function runCliToEnd(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, '--port', '0', ...args], {
    env: { ...process.env, OBS_LOCAL_DATA: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/** A process's resident set size in MB, from /proc. */
export function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return kb / 1024;
}

/**
 * An OTLP/JSON export of `count` one-span traces, numbered from `from`, each span carrying
 * `attributeBytes` of input text (and a model, usage, a user).
 */
export function otlpJson(from: number, count: number, attributeBytes = 1000, base = BigInt(Date.now()) * 1_000_000n): string {
  const filler = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(attributeBytes / 27)).slice(0, attributeBytes);
  const spans = [];
  for (let i = from; i < from + count; i++) {
    const start = base + BigInt(i) * 1000n;
    spans.push({
      traceId: (i + 1).toString(16).padStart(32, '0'),
      spanId: (i + 1).toString(16).padStart(16, '0'),
      name: `request ${i % 50}`,
      kind: 1,
      startTimeUnixNano: String(start),
      endTimeUnixNano: String(start + 500_000n),
      attributes: [
        { key: 'obs.observation.input', value: { stringValue: `${i} ${filler}` } },
        { key: 'obs.observation.model.name', value: { stringValue: 'gpt-4o-mini' } },
        { key: 'obs.observation.usage_details', value: { stringValue: '{"input":120,"output":30}' } },
        { key: 'user.id', value: { stringValue: `user-${i % 100}` } },
      ],
    });
  }
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'test' }, spans }] }] });
}

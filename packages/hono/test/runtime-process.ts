/**
 * Runs the test app under another runtime's binary (Bun, Deno) from the npm package that ships
 * it, pointed at the local obs server through `OBS_*`, and tells whether a runtime's binary (Bun,
 * Deno, workerd) runs here.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ObsServer } from '@obs/local-server';

export const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/**
 * The runtime binary an npm package installed (`bun`, `deno`), or why it cannot run here: the
 * one message a skipped suite prints.
 */
export function runtimeBinary(pkg: 'bun' | 'deno' | 'workerd'): { path?: string; unavailable?: string } {
  let path: string;
  try {
    const dir = dirname(require.resolve(`${pkg}/package.json`));
    path = pkg === 'bun' ? join(dir, 'bin', 'bun.exe') : pkg === 'deno' ? join(dir, 'deno') : join(dir, 'bin', 'workerd');
  } catch (err) {
    return { unavailable: `the ${pkg} npm package is not installed (${String(err)})` };
  }
  const probe = spawnSync(path, ['--version'], { encoding: 'utf8' });
  if (probe.status !== 0) return { unavailable: `the ${pkg} binary from npm does not run on this machine: ${probe.error ?? probe.stderr}` };
  return { path };
}

/** A started app: its base URL and a way to stop it. */
export interface RuntimeApp {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `args` under `binary` in the package directory and waits for its `LISTENING <port>` line. */
export function startRuntimeApp(binary: string, args: string[], server: ObsServer): Promise<RuntimeApp> {
  const child: ChildProcess = spawn(binary, args, {
    cwd: packageDir,
    env: { ...process.env, ...server.env, OBS_FLUSH_INTERVAL: '0.05', OBS_LOG_LEVEL: 'warn', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${binary} ${args.join(' ')} did not start:\n${out}`)), 60_000);
    const onData = (d: Buffer) => {
      out += d;
      const port = /LISTENING (\d+)/.exec(out)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({
          url: `http://127.0.0.1:${port}`,
          output: () => out,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${binary} exited with ${code} before listening:\n${out}`));
    });
  });
}

/**
 * What the meta-framework suites (`@obs/react-router`, `@obs/sveltekit`, `@obs/nuxt`; `@obs/next`
 * for its build and server) share: one real production build of a test app per suite (its tool run
 * to completion, its output kept for the warnings check) and the app served by the framework's own server as a child process,
 * pointed at the local obs server through `OBS_*`, on a free port (`serveWithObs`: both for the
 * tests of a file).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { DecodedSpan, ObsServer } from '@obs/local-server';
import { freePort, setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, expect } from 'vitest';
import type { TestProject } from 'vitest/node';

export { freePort };

/** Environment for a framework's tools: no inherited obs settings, no telemetry of theirs. */
export function appEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NUXT_TELEMETRY_DISABLED: '1',
    NEXT_TELEMETRY_DISABLED: '1',
    NODE_ENV: 'production',
    ...extra,
  };
  for (const key of Object.keys(env)) if (key.startsWith('OBS_') && !(key in extra)) delete env[key];
  delete env.NODE_OPTIONS;
  return env;
}

/** Runs `node <args>` in `cwd` to completion; resolves with its output, rejects with it when it fails. */
export function runNode(args: string[], cwd: string, env: NodeJS.ProcessEnv = appEnv()): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`node ${args.join(' ')} exited ${code}:\n${out}`))));
  });
}

/** A served app: its base URL, its output so far, and a way to stop it. */
export interface ServedApp {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `node <args(port)>` in `cwd` and resolves once `probe` answers HTTP (any status): the
 * framework's own production server.
 */
export async function serveApp(
  args: (port: number) => string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  probe = '/favicon.ico',
): Promise<ServedApp> {
  const port = await freePort();
  const child = spawn(process.execPath, args(port), {
    cwd,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', NITRO_PORT: String(port), NITRO_HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args(port).join(' ')} exited ${child.exitCode}:\n${out}`);
    const up = await fetch(`${url}${probe}`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`the app did not answer in 30 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A local obs server and a built app served against it (`serveWithObs`); read them inside tests or hooks. */
export interface ServedSuite {
  readonly server: ObsServer;
  readonly app: ServedApp;
}

/**
 * Registers the calling file's hooks: a local obs server (`setupObsServer`: reset before each
 * test) and, once it is up, the built app in `cwd` served by `node <args(port)>` against it (a
 * 100 ms flush interval), stopped after the tests, before the server.
 */
export function serveWithObs(args: (port: number) => string[], cwd: string): ServedSuite {
  const local = setupObsServer();
  let app: ServedApp | undefined;
  beforeAll(async () => {
    app = await serveApp(args, cwd, appEnv({ ...local.server.env, OBS_FLUSH_INTERVAL: '0.1' }));
  });
  afterAll(async () => {
    await app?.stop();
  });
  return {
    get server() {
      return local.server;
    },
    get app() {
      if (!app) throw new Error('serveWithObs: the app is read before it was served (read it inside a test or hook)');
      return app;
    },
  };
}

/** The lines of a build's output that mention obs (its packages or its bundle): what must be none. */
export function obsWarnings(buildLog: string): string[] {
  return buildLog
    .split('\n')
    .filter((l) => /@obs\/|packages\/(core|react-router|sveltekit|nuxt)\/|obs-edge|chunks\/obs/.test(l) && /warn|error|⚠/i.test(l));
}

declare module 'vitest' {
  export interface ProvidedContext {
    build: { log: string; ms: number };
    /** The build of the suite's floor app (floors/<framework>: the lowest versions of its peer range). */
    floorBuild: { log: string; ms: number };
    /** The build of a suite's second floor app, when its peer range spans two majors (floors/react-router-7). */
    majorFloorBuild: { log: string; ms: number };
  }
}

/**
 * A suite's global set-up: one production build (`node <args>` in `appDir`) for all its tests,
 * its output provided to them as `inject(key)` (`build`, or `floorBuild` for the floor app).
 */
export async function buildOnce(
  project: TestProject,
  label: string,
  appDir: string,
  args: string[],
  key: 'build' | 'floorBuild' | 'majorFloorBuild' = 'build',
): Promise<void> {
  const start = performance.now();
  const log = await runNode(args, appDir);
  const ms = Math.round(performance.now() - start);
  project.provide(key, { log, ms });
  console.log(`[${label}] ${appDir.split('/').slice(-2).join('/')} built in ${(ms / 1000).toFixed(1)} s`);
}

/** The spans of the trace whose root is named `rootName`, once `count` of them arrived. */
export function traceRootedAt(server: ObsServer, rootName: string, count: number): Promise<DecodedSpan[]> {
  return server.waitFor(
    () => {
      const root = server.spans().find((s) => s.name === rootName && !s.parentSpanId);
      const spans = root ? server.spansByTrace(root.traceId) : [];
      return spans.length >= count ? spans : undefined;
    },
    { timeoutMs: 10_000 },
  );
}

/** The spans of trace `traceId`, once `count` of them arrived. */
export function traceWith(server: ObsServer, traceId: string, count: number): Promise<DecodedSpan[]> {
  return server.waitFor(() => (server.spansByTrace(traceId).length >= count ? server.spansByTrace(traceId) : undefined), {
    timeoutMs: 10_000,
  });
}

/** The span named `name`; throws with the names there are. */
export function spanNamed(spans: DecodedSpan[], name: string): DecodedSpan {
  const span = spans.find((s) => s.name === name);
  if (!span) throw new Error(`no span "${name}" in ${spans.map((s) => s.name).join(', ')}`);
  return span;
}

/**
 * The root of a served request's trace, named `<method> <route>`, with what each adapter records on
 * it: the route pattern, the path, the 200 it answered and the user its `identify` read (the
 * suites' requests send `x-user-id: user-7`).
 */
export function requestRoot(spans: DecodedSpan[], method: string, route: string, path: string): DecodedSpan {
  const root = spanNamed(spans, `${method} ${route}`);
  expect(root.attributes).toMatchObject({ 'http.route': route, 'url.path': path, 'http.response.status_code': 200, 'user.id': 'user-7' });
  return root;
}

/**
 * The vitest config of a meta-framework suite: one project (the app runs in its own process, where
 * obs picks its tracer provider itself; `providerProjects`' set-up lives in the vitest process and
 * would never reach it), and the one production build in `test/global-setup.ts`.
 */
export function frameworkSuiteConfig(reporters: unknown): Record<string, unknown> {
  return { include: ['test/**/*.test.ts'], globalSetup: ['test/global-setup.ts'], testTimeout: 30_000, hookTimeout: 180_000, reporters };
}

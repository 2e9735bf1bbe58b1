import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DecodedSpan, ObsServer } from '@obs/local-server';

/** The example app the tests build and run. */
export const EXAMPLE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../examples/next');

/** The `next` CLI of the example, run with this Node.js (22, from the repository's devDependency). */
export const NEXT_BIN = createRequire(path.join(EXAMPLE_DIR, 'package.json')).resolve('next/dist/bin/next');

/** Environment for Next.js in tests: no telemetry, no inherited obs settings. */
export function nextEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...extra };
  for (const key of Object.keys(env)) if (key.startsWith('OBS_') && !(key in extra)) delete env[key];
  delete env.NODE_OPTIONS;
  return env;
}

/** Runs a command to completion; rejects with its output when it fails. */
export function run(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [NEXT_BIN, ...args], { cwd: EXAMPLE_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`next ${args.join(' ')} exited ${code}:\n${out}`))));
  });
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

/** `next start` of the built example; resolves once it answers HTTP. */
export async function startNext(
  env: NodeJS.ProcessEnv,
): Promise<{ url: string; child: ChildProcess; output: () => string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [NEXT_BIN, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: EXAMPLE_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited ${child.exitCode}:\n${out}`);
    // A static-asset path: answered by Next (404), ignored by withObs, so it makes no spans.
    const ok = await fetch(`${url}/robots.txt`).then(
      () => true,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`next start did not answer in 30 s:\n${out}`);
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

/**
 * The spans of a trace form whole trees: no Next.js infrastructure span, and every parent is either an
 * exported span of the same trace or, for roots, absent (or the caller's remote span when given).
 */
export function expectWholeTrace(spans: DecodedSpan[], remoteParent?: string): string[] {
  const problems: string[] = [];
  const ids = new Set(spans.map((s) => s.spanId));
  for (const s of spans) {
    if (s.scope.name === 'next.js') problems.push(`Next.js span exported: ${s.name}`);
    if (s.parentSpanId && !ids.has(s.parentSpanId) && s.parentSpanId !== remoteParent) {
      problems.push(`${s.name} points at a parent that was not exported (${s.parentSpanId})`);
    }
  }
  return problems;
}

/** Waits until the trace has its root `rootName` and a generation on `server`; returns its spans. */
export function waitForGenerationTrace(server: ObsServer, traceId: string, rootName: string): Promise<DecodedSpan[]> {
  return server.waitFor(
    () => {
      const s = server.spansByTrace(traceId);
      return s.some((x) => x.attributes['obs.observation.type'] === 'generation') && s.some((x) => x.name === rootName) ? s : undefined;
    },
    { timeoutMs: 10_000 },
  );
}

/** The first span named `name` on `server`, once one arrived. */
export function firstSpan(server: ObsServer, name: string, timeoutMs = 10_000): Promise<DecodedSpan> {
  return server.waitFor(() => server.spansByName(name)[0], { timeoutMs, description: `a span named ${name}` });
}

/**
 * What `onRequestError` records on an observation: level ERROR, the error's message, and Next's
 * context (`routerKind`, `routeType`, `digest`, ...) as `next.*` metadata.
 */
export function nextErrorAttributes(message: string, next: Record<string, string>): Record<string, string> {
  const metadata = Object.entries(next).map(([key, value]) => [`obs.observation.metadata.next.${key}`, value]);
  return { 'obs.observation.level': 'ERROR', 'obs.observation.status_message': message, ...Object.fromEntries(metadata) };
}

/** `POST /api/ai` of the example (the AI SDK route) as `user-ai`; returns the trace id once it answered. */
export async function askAiRoute(appUrl: string): Promise<string> {
  const res = await fetch(`${appUrl}/api/ai`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user-id': 'user-ai' },
    body: JSON.stringify({ message: 'Capital of Portugal?' }),
  });
  if ((await res.text()) !== JSON.stringify({ answer: 'Lisbon is the capital of Portugal.' }))
    throw new Error('unexpected answer from /api/ai');
  return res.headers.get('x-obs-trace-id')!;
}

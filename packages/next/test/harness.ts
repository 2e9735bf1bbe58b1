import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DecodedSpan, ObsServer } from '@obs/local-server';
import { appEnv, freePort, runNode, type ServedApp, serveApp } from '../../../tests/support/framework-app.js';

/** The example app the tests build and run. */
export const EXAMPLE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../examples/next');

/** The `next` CLI of the example, run with this Node.js (22, from the repository's devDependency). */
export const NEXT_BIN = createRequire(path.join(EXAMPLE_DIR, 'package.json')).resolve('next/dist/bin/next');

/** Environment for Next.js in tests: no telemetry, no inherited obs settings (the meta-frameworks' `appEnv`). */
export const nextEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => appEnv(extra);

/** Runs the `next` CLI to completion; rejects with its output when it fails. */
export const run = (args: string[], env: NodeJS.ProcessEnv): Promise<string> => runNode([NEXT_BIN, ...args], EXAMPLE_DIR, env);

export { freePort };

/** `next start` of the built example; resolves once it answers a static-asset path (404 from Next, no spans from withObs). */
export const startNext = (env: NodeJS.ProcessEnv): Promise<ServedApp> =>
  serveApp((port) => [NEXT_BIN, 'start', '-p', String(port), '-H', '127.0.0.1'], EXAMPLE_DIR, env, '/robots.txt');

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

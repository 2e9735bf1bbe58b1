/**
 * Next.js 16 next to the app's own tracer, initialised before or after obs: `@vercel/otel`
 * (exporting over OTLP to a second local server standing for the app's backend) and
 * `@sentry/nextjs` 10, the default way and with ObsSpanProcessor in `openTelemetrySpanProcessors`
 * (sending through its own transport to a local DSN sink), in a real
 * `next build` + `next start` of tests/next-foreign-app (built once; the tracer and the order are
 * chosen at start). Each tracer first runs the same request without obs, as its baseline. With obs,
 * in either order: the local obs server gets one tree (the request root, the observation, the
 * app's span inside it) and the request's score; the app's tracer gets what it gets without obs,
 * with no parent it never received, no obs observation and none of obs's own requests. The
 * exception, Sentry's own provider (no span processors): obs runs beside it, the app's span stays
 * Sentry's only, and one warning names the fix.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DecodedSpan } from '@obs/local-server';
import { freePort, setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SentrySink, startSentrySink } from './foreign-tracers/sentry-sink.js';

const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), 'next-foreign-app');
const NEXT_BIN = createRequire(join(APP_DIR, 'package.json')).resolve('next/dist/bin/next');

const local = setupObsServer({ reset: false });
/** The app's own OTLP backend (what @vercel/otel exports to). */
const backend = setupObsServer({ reset: false });
let sentry: SentrySink;

function nextEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...extra };
  for (const key of Object.keys(env)) if ((key.startsWith('OBS_') || key.startsWith('OTEL_')) && !(key in extra)) delete env[key];
  delete env.NODE_OPTIONS;
  return env;
}

function runNext(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [NEXT_BIN, ...args], { cwd: APP_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

beforeAll(async () => {
  sentry = await startSentrySink();
  const child = runNext(['build'], nextEnv({}));
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`next build exited ${code}:\n${out}`);
}, 600_000);

afterAll(async () => sentry?.close());

type Order = 'none' | 'before' | 'after';

interface Outcome {
  body: unknown;
  traceId: string | null;
  /** The app tracer's spans of the request, as `scope:name`. */
  app: { key: string; spanId: string; parentSpanId?: string; url?: string; root: boolean }[];
  log: string;
}

/** Starts the app with the tracer `tracerEnv` names initialised `order` obs (none: no obs), sends one request, stops it. */
async function scenario(tracerEnv: Record<string, string>, order: Order): Promise<Outcome> {
  const vercel = tracerEnv.APP_TRACER === 'vercel';
  const auth = Buffer.from(`${backend.server.publicKey}:${backend.server.secretKey}`).toString('base64');
  const env = nextEnv({
    ...(order === 'none' ? { NO_OBS: '1' } : { ...local.server.env, OBS_LOG_LEVEL: 'info', TRACER_ORDER: order }),
    ...tracerEnv,
    SENTRY_DSN: sentry.dsn,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${backend.server.url}/api/public/otel/v1/traces`,
    OTEL_EXPORTER_OTLP_TRACES_HEADERS: `authorization=Basic%20${auth}`,
    OTEL_BSP_SCHEDULE_DELAY: '100',
  });
  const port = await freePort();
  const child = runNext(['start', '-p', String(port), '-H', '127.0.0.1'], env);
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  try {
    const deadline = Date.now() + 60_000;
    while (
      !(await fetch(`${url}/robots.txt`).then(
        () => true,
        () => false,
      ))
    ) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`next start did not answer:\n${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // Start-up and the readiness probe are not the request's.
    await new Promise((r) => setTimeout(r, 500));
    local.server.reset();
    backend.server.reset();
    sentry.reset();
    const res = await fetch(`${url}/api/chat/7`, { method: 'POST' });
    const body: unknown = await res.json();
    const traceId = res.headers.get('x-obs-trace-id');
    if (order !== 'none') {
      await local.server.waitFor(() => (local.server.spans().length >= 2 && local.server.scores.length >= 1 ? true : undefined), {
        timeoutMs: 30_000,
      });
    }
    const app = vercel ? await vercelSpans() : await sentrySpans();
    // Anything late (an export of obs's the app's tracer should not have recorded) has time to arrive.
    await new Promise((r) => setTimeout(r, 1500));
    const late = vercel ? await vercelSpans(false) : await sentrySpans(false);
    return { body, traceId, app: late.length >= app.length ? late : app, log };
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
}

const key = (scope: string, name: string) => `${scope}:${name}`;

async function vercelSpans(wait = true): Promise<Outcome['app']> {
  const spans = (): DecodedSpan[] => backend.server.spans();
  if (wait) await backend.server.waitFor(() => (spans().some((s) => s.name === 'app-work') ? true : undefined), { timeoutMs: 30_000 });
  return spans().map((s) => ({
    key: key(s.scope.name, s.name),
    spanId: s.spanId,
    parentSpanId: s.parentSpanId,
    url: String(s.attributes['url.full'] ?? s.attributes['http.url'] ?? ''),
    root: !s.parentSpanId,
  }));
}

async function sentrySpans(wait = true): Promise<Outcome['app']> {
  if (wait) await backend.server.waitFor(() => (sentry.transactions().length > 0 ? true : undefined), { timeoutMs: 30_000 });
  return sentry.spans().map((s) => ({
    key: key(s.scope, s.name),
    spanId: s.spanId,
    parentSpanId: s.parentSpanId,
    url: s.url,
    root: s.scope === 'transaction' || s.scope === 'segment',
  }));
}

/**
 * The obs trace of the request: one tree, the root, the observation and (attached) the app's span
 * inside it, and the request's score.
 */
function assertObsTree(traceId: string | null, attached: boolean): void {
  const spans = local.server.spans();
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(spans.every((s) => s.traceId === traceId)).toBe(true);
  const byName = new Map(spans.map((s) => [s.name, s]));
  expect([...byName.keys()].sort()).toEqual(['POST /api/chat/[id]', 'answer', ...(attached ? ['app-work'] : [])]);
  expect(byName.get('POST /api/chat/[id]')!.parentSpanId).toBeUndefined();
  expect(byName.get('answer')!.parentSpanId).toBe(byName.get('POST /api/chat/[id]')!.spanId);
  if (attached) expect(byName.get('app-work')!.parentSpanId).toBe(byName.get('answer')!.spanId);
  expect(local.server.scores.map((s) => (s as { name?: string }).name)).toEqual(['helpful']);
}

interface AppTracer {
  name: string;
  env: Record<string, string>;
  /** Whether obs attaches to the tracer's provider (else it runs isolated beside it: the exception). */
  attached: boolean;
  /** The exception's one warning, naming the fix. */
  warning?: string;
}

const TRACERS: AppTracer[] = [
  { name: '@vercel/otel', env: { APP_TRACER: 'vercel' }, attached: true },
  // Sentry's own provider takes no span processors: obs runs isolated beside it (its spans reach
  // obs, the app's spans inside them stay Sentry's), and one warning names the fix, the next scenario.
  {
    name: '@sentry/nextjs 10, initialised the default way',
    env: { APP_TRACER: 'sentry' },
    attached: false,
    warning: 'To keep every span on both sides, pass openTelemetrySpanProcessors: [new ObsSpanProcessor()] to Sentry.init().',
  },
  {
    name: '@sentry/nextjs 10, with ObsSpanProcessor in openTelemetrySpanProcessors',
    env: { APP_TRACER: 'sentry', SENTRY_WAY: 'documented' },
    attached: true,
  },
];

for (const tracer of TRACERS) {
  describe(`${tracer.name} in Next.js 16`, () => {
    let baseline: string[];

    beforeAll(async () => {
      const r = await scenario(tracer.env, 'none');
      expect(r.body).toEqual({ id: '7', answer: 'next answer' });
      baseline = r.app.map((s) => s.key).sort();
      expect(baseline).toContain(tracer.env.APP_TRACER === 'vercel' ? 'app-lib:app-work' : 'transaction:POST /api/chat/[id]');
    }, 120_000);

    for (const order of ['before', 'after'] as const) {
      it(`initialised ${order} obs: one obs tree; the app's tracer gets what it gets without obs`, async () => {
        const r = await scenario(tracer.env, order);
        expect(r.body).toEqual({ id: '7', answer: 'next answer' });
        assertObsTree(r.traceId, tracer.attached);
        const warnings = r.log.split('\n').filter((l) => l.includes('cannot take the obs span processor'));
        expect(warnings).toEqual(tracer.warning ? [expect.stringContaining(tracer.warning)] : []);
        if (tracer.attached) expect(r.log).toContain('obs attached its span processor');
        expect(r.app.map((s) => s.key).sort()).toEqual(baseline);
        const ids = new Set(r.app.map((s) => s.spanId));
        for (const s of r.app) if (s.parentSpanId && !s.root) expect(ids.has(s.parentSpanId), `parent of ${s.key}`).toBe(true);
        // None of obs's own requests (span export, the score) is the app's span.
        expect(r.app.filter((s) => s.url?.startsWith(local.server.url) || s.key.includes('/api/public/'))).toEqual([]);
      }, 120_000);
    }
  });
}

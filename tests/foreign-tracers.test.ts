/**
 * One obs tree whatever else traces the app, and the app's own tracer unharmed, whichever was
 * initialised first. Each scenario runs an app in its own process after a real tracer setup was
 * preloaded, before obs (`--require setup app`) or after it (`--import obs-first.mjs --import setup
 * app`, as an app whose first line is `initObs()`): tests/foreign-tracers/app.cjs (Express with
 * obsMiddleware) next to OpenTelemetry's NodeSDK (SDK 2 line), a NodeTracerProvider with http +
 * express instrumentations, a bare NodeTracerProvider, Sentry 10 (the default way and with
 * ObsSpanProcessor) and Sentry 11 sending to a local DSN sink; tests/foreign-tracers/nest-app.cjs
 * (Nest 11 with ObsModule) next to http + express + nestjs-core on the Express platform and http +
 * `@fastify/otel` on the Fastify platform. Every app does the same request: an obs observation
 * around a LangChain chain and an AI SDK call (foreign-tracers/chat-work.cjs). The local obs
 * server must receive one tree rooted at the request root, no framework span, nothing orphaned;
 * the app's own exporter (or Sentry's transport) must receive what it receives when the same app
 * runs without obs (`NO_OBS=1`, counted per scenario), plus the span of obs's middleware, with no
 * parent it never got, no obs observation and none of obs's own requests. The last scenarios run
 * both apps with obs alone on Node.js 22's async-context-frame AsyncLocalStorage
 * (`--experimental-async-context-frame`, Node.js 24's default). OpenTelemetry's SDK 3 line runs in
 * the consumer test's fresh app (it needs `@opentelemetry/api` 1.10).
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SentrySink, startSentrySink } from './foreign-tracers/sentry-sink.js';

const here = join(dirname(fileURLToPath(import.meta.url)), 'foreign-tracers');
const local = setupObsServer({ reset: false });
let sentry: SentrySink;
beforeAll(async () => {
  sentry = await startSentrySink();
});
afterAll(async () => sentry?.close());
interface AppSpan {
  name: string;
  scope: string;
  spanId: string;
  parentSpanId?: string;
  url?: string;
}
interface Result {
  mode: string;
  traceId: string;
  body: { answer: string };
  appSpans: AppSpan[];
  /** Whether the app's AsyncLocalStorage ran on the async context frame. */
  asyncContextFrame: boolean;
  /** obs's log lines (stdout and stderr). */
  log: string[];
}

/**
 * Runs `app` after the tracer `setup` files (none: obs alone), with `nodeFlags` for Node itself.
 * Several files load in order, all with `--import` (Node.js runs every `--require` before any `--import`).
 */
function runScenario(
  setup: string | string[] | undefined,
  env: Record<string, string>,
  app = 'app.cjs',
  nodeFlags: string[] = [],
): Promise<Result> {
  return new Promise((resolve, reject) => {
    const files = [setup ?? []].flat();
    const flag = (file: string) => (files.length > 1 || file.endsWith('.mjs') ? '--import' : '--require');
    const preload = files.flatMap((file) => [flag(file), join(here, file)]);
    const child = spawn(process.execPath, [...nodeFlags, ...preload, join(here, app)], {
      cwd: here,
      env: {
        ...process.env,
        ...local.server.env,
        OBS_LOG_LEVEL: 'warn',
        ...env,
      },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) reject(new Error(`scenario exited ${code}\n${out}\n${err}`));
      else resolve({ ...(JSON.parse(line.slice(7)) as Result), log: `${out}\n${err}`.split('\n').filter((l) => l.startsWith('[obs]')) });
    });
  });
}

/** Asserts the one obs tree of the request and returns its spans. */
function assertOneTree(traceId: string, expectAi = true): DecodedSpan[] {
  const spans = local.server.spans().filter((s) => s.traceId === traceId);
  const ids = new Set(spans.map((s) => s.spanId));
  expect(ids.size, 'no duplicate span').toBe(spans.length);
  const roots = spans.filter((s) => !s.parentSpanId);
  expect(roots.map((s) => s.name)).toEqual(['POST /chat']);
  const root = roots[0]!;
  // Nothing orphaned: every parent was exported; no framework span reached obs.
  for (const s of spans) if (s.parentSpanId) expect(ids.has(s.parentSpanId), `parent of ${s.name}`).toBe(true);
  for (const s of spans) expect(s.scope.name, s.name).toMatch(/^(obs-sdk|ai|gen_ai)$/);
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const parentName = (name: string) => byId.get(spans.find((s) => s.name === name)?.parentSpanId ?? '')?.name;
  expect(parentName('answer')).toBe('POST /chat');
  expect(parentName('RunnableSequence')).toBe('answer');
  expect(parentName('FakeListChatModel')).toBe('RunnableSequence');
  const ai = spans.filter((s) => s.scope.name !== 'obs-sdk');
  expect(ai.length >= 2).toBe(expectAi);
  for (const s of ai) {
    let p: DecodedSpan | undefined = s;
    while (p?.parentSpanId) p = byId.get(p.parentSpanId);
    expect(p, `${s.name} reaches the root`).toBe(root);
  }
  expect(spans.filter((s) => s.attributes['obs.observation.type'] === 'generation').length).toBe(expectAi ? 2 : 1);
  for (const s of spans) expect(s.attributes['user.id'], s.name).toBe('user-1');
  return spans;
}

const obsNames = ['POST /chat', 'answer', 'RunnableSequence', 'ChatPromptTemplate', 'FakeListChatModel', 'StrOutputParser'];

/** Framework instrumentation scopes: OpenTelemetry's, and Fastify's own. */
const isFramework = (scope: string) => scope.startsWith('@opentelemetry/instrumentation-') || scope === '@fastify/otel';

const keepFrameworkSpans = JSON.stringify({ frameworkSpans: 'export', shareObservations: true });

/**
 * With `frameworkSpans: 'export'`: the framework spans reach obs, never as the parents of obs
 * spans, nothing orphaned, the root linked to the framework span it ran under; with
 * `shareObservations` the app's exporter gets the obs spans too. Returns the framework scopes exported.
 */
function assertFrameworkSpansKept(r: Result): string[] {
  const all = local.server.spans().filter((s) => s.traceId === r.traceId);
  const obsSpans = all.filter((s) => !isFramework(s.scope.name));
  const framework = all.filter((s) => isFramework(s.scope.name));
  expect(framework.length).toBeGreaterThanOrEqual(3);
  const ids = new Set(all.map((s) => s.spanId));
  for (const s of all) if (s.parentSpanId) expect(ids.has(s.parentSpanId), `parent of ${s.name}`).toBe(true);
  const frameworkIds = new Set(framework.map((s) => s.spanId));
  for (const s of obsSpans) expect(frameworkIds.has(s.parentSpanId ?? ''), s.name).toBe(false);
  const roots = obsSpans.filter((s) => !s.parentSpanId);
  expect(roots.map((s) => s.name)).toEqual(['POST /chat']);
  expect(frameworkIds.has(roots[0]!.links[0]!.spanId)).toBe(true);
  expect(r.appSpans.map((s) => s.name)).toEqual(expect.arrayContaining(obsNames));
  return [...new Set(framework.map((s) => s.scope.name))].sort();
}

/** A tracer the app sets up, how the scenario runs it, and what obs does next to it. */
interface AppTracer {
  name: string;
  setup: string;
  env: Record<string, string>;
  /** The mode obs ends in, whichever was initialised first. */
  mode: 'attached' | 'isolated' | 'registered';
  /** The app's spans come from the local Sentry sink (its real transport), not from an in-memory exporter. */
  sentry?: boolean;
  /** The app spans obs adds (the framework's span of obs's own middleware), as `scope:name`. */
  added: string[];
  /**
   * The exception: spans the app's tracer no longer gets (a provider that takes no processors:
   * LLM spans inside obs work go to obs only), announced by one warning that names the fix.
   */
  lost?: { spans: string[]; warning: string };
}

const OTEL_EXPRESS_LAYER = '@opentelemetry/instrumentation-express:middleware - obsMiddleware';
const APP_TRACERS: AppTracer[] = [
  {
    name: 'OpenTelemetry NodeSDK (SDK 2 line) with http + express instrumentations',
    setup: 'otel-sdk-setup.cjs',
    env: {},
    mode: 'attached',
    added: [OTEL_EXPRESS_LAYER],
  },
  {
    name: 'a NodeTracerProvider with http + express instrumentations',
    setup: 'otel-setup.cjs',
    env: {},
    mode: 'attached',
    added: [OTEL_EXPRESS_LAYER],
  },
  { name: 'a bare NodeTracerProvider', setup: 'otel-setup.cjs', env: { OTEL_SCENARIO: 'plain' }, mode: 'attached', added: [] },
  // Sentry 10's own provider takes no span processors: obs runs isolated beside it, and the LLM
  // library spans inside obs work (the AI SDK's) go to obs only. The one exception, the same in
  // both orders: one warning names the fix (the next scenario).
  {
    name: 'Sentry 10, initialised the default way',
    setup: 'sentry-setup.mjs',
    env: { SENTRY_PACKAGE: '@sentry/node' },
    mode: 'isolated',
    sentry: true,
    added: ['auto.http.express:obsMiddleware'],
    lost: {
      // The AI SDK's OpenTelemetry spans (Sentry's own AI integration's stay Sentry's).
      spans: ['manual:chat mock-gpt', 'manual:invoke_agent mock-gpt', 'manual:step 1'],
      warning: 'To keep every span on both sides, pass openTelemetrySpanProcessors: [new ObsSpanProcessor()] to Sentry.init().',
    },
  },
  {
    name: 'Sentry 10, with ObsSpanProcessor in openTelemetrySpanProcessors',
    setup: 'sentry-setup.mjs',
    env: { SENTRY_PACKAGE: '@sentry/node', SENTRY_WAY: 'documented' },
    mode: 'attached',
    sentry: true,
    added: ['auto.http.express:obsMiddleware'],
  },
  // Sentry 11 registers no OpenTelemetry provider by default: obs keeps its own, and Sentry's own
  // tracing (its http, express and AI integrations) carries on beside it.
  {
    name: 'Sentry 11, initialised the default way',
    setup: 'sentry-setup.mjs',
    env: { SENTRY_PACKAGE: 'sentry-node-11' },
    mode: 'registered',
    sentry: true,
    added: ['auto.http.express:obsMiddleware'],
  },
];

const spanKeys = (spans: { scope: string; name: string }[]) => spans.map((s) => `${s.scope}:${s.name}`).sort();

describe("one obs tree next to the app's own tracer, initialised before or after obs", () => {
  for (const tracer of APP_TRACERS) {
    describe(tracer.name, () => {
      const env = { ...tracer.env, SENTRY_DSN: '' };
      /** What the app's tracer sends without obs. */
      let baseline: string[];
      const appSpans = async (r: Result) => (tracer.sentry ? sentry.spans() : r.appSpans);

      beforeAll(async () => {
        sentry.reset();
        env.SENTRY_DSN = sentry.dsn;
        const r = await runScenario(tracer.setup, { ...env, NO_OBS: '1' });
        expect(r.body.answer).toBe('Refund approved. Hello there');
        baseline = spanKeys(await appSpans(r));
        expect(baseline.length, 'the app tracer records the request without obs').toBeGreaterThan(0);
      }, 60_000);

      for (const order of ['before', 'after'] as const) {
        it(`initialised ${order} obs: one obs tree; the app's tracer gets what it gets without obs`, async () => {
          local.server.reset();
          sentry.reset();
          const preload = order === 'after' ? ['obs-first.mjs', tracer.setup] : [tracer.setup];
          const r = await runScenario(preload, env);
          expect(r.body.answer).toBe('Refund approved. Hello there');
          expect(r.mode).toBe(tracer.mode);
          const spans = assertOneTree(r.traceId);
          expect(local.server.spans().length).toBe(spans.length);
          // obs's own requests happened: the export, the score, the API read.
          expect(local.server.scores.map((s) => (s as { name?: string }).name)).toEqual(['helpful']);
          expect(local.server.requests.filter((q) => q.path === '/api/public/health').length).toBe(1);
          const app = await appSpans(r);
          const lost = tracer.lost?.spans ?? [];
          expect(baseline).toEqual(expect.arrayContaining(lost));
          expect(spanKeys(app)).toEqual([...baseline.filter((k) => !lost.includes(k)), ...tracer.added].sort());
          // Every parent the app's spans name is one the app has: no observation left a hole in its tree.
          const appIds = new Set(app.map((s) => s.spanId));
          for (const s of app)
            if (s.parentSpanId && s.scope !== 'transaction' && s.scope !== 'segment')
              expect(appIds.has(s.parentSpanId), `parent of ${s.name}`).toBe(true);
          // No obs observation reaches the app's exporter (shareObservations is off).
          expect(app.filter((s) => obsNames.slice(1).includes(s.name))).toEqual([]);
          // obs's own requests (span export) are never the app's spans.
          expect(app.filter((s) => s.url?.startsWith(local.server.url))).toEqual([]);
          // One line says what the exception costs and how to avoid it; a tracer registered after obs
          // that took obs's processor says so at the default level (issue 44); nothing else is said.
          const warnings = r.log.filter((l) => !l.startsWith('[obs] on: '));
          const tookOver =
            order === 'after' && tracer.mode === 'attached' ? [expect.stringContaining('was registered after obs and took over')] : [];
          expect(warnings).toEqual(tracer.lost ? [expect.stringContaining(tracer.lost.warning)] : tookOver);
        });
      }
    });
  }

  it('frameworkSpans: "export" and shareObservations: the framework spans reach obs, never as obs parents; the app exporter gets obs spans', async () => {
    local.server.reset();
    const r = await runScenario('otel-setup.cjs', { OBS_INIT_OPTIONS: keepFrameworkSpans });
    expect(assertFrameworkSpansKept(r)).toEqual(['@opentelemetry/instrumentation-express', '@opentelemetry/instrumentation-http']);
  });

  it('OpenTelemetry http + express: the root is re-rooted with a link to the framework span it ran under', async () => {
    local.server.reset();
    const r = await runScenario('otel-setup.cjs', {});
    const root = assertOneTree(r.traceId).find((s) => s.name === 'POST /chat')!;
    const middleware = r.appSpans.find((s) => s.name === 'middleware - obsMiddleware')!;
    expect(root.links.map((l) => l.spanId)).toEqual([middleware.spanId]);
  });
});

describe('one obs tree in a Nest 11 app next to OpenTelemetry instrumentations', () => {
  const appScope = (r: Result, scope: string) => r.appSpans.filter((s) => s.scope === scope);

  it('Express platform, http + express + nestjs-core instrumentations: Nest spans skipped, the root re-rooted with a link, app exporter intact', async () => {
    local.server.reset();
    const r = await runScenario('otel-setup.cjs', { OTEL_INSTRUMENTATIONS: 'http,express,nestjs' }, 'nest-app.cjs');
    expect(r.body.answer).toBe('Refund approved. Hello there');
    expect(r.mode).toBe('attached');
    const spans = assertOneTree(r.traceId);
    // Nothing else: not the Nest spans of the request, not "Create Nest App" at start-up.
    expect(local.server.spans().length).toBe(spans.length);
    // The nestjs-core instrumentation was active: the app's exporter got its spans.
    const nest = appScope(r, '@opentelemetry/instrumentation-nestjs-core');
    expect(nest.map((s) => s.name).sort()).toEqual(['ChatController.chat', 'Create Nest App', 'chat']);
    expect(appScope(r, '@opentelemetry/instrumentation-http').map((s) => s.name)).toEqual(['POST /chat']);
    // The root ran under express's layer of obs's middleware; the @Observe span under Nest's handler span.
    const byName = (name: string) => spans.find((s) => s.name === name)!;
    const nestMiddleware = appScope(r, '@opentelemetry/instrumentation-express').find((s) => s.name === 'middleware - obsNestMiddleware')!;
    expect(byName('POST /chat').links.map((l) => l.spanId)).toEqual([nestMiddleware.spanId]);
    expect(byName('answer').links.map((l) => l.spanId)).toEqual([nest.find((s) => s.name === 'chat')!.spanId]);
    expect(appScope(r, 'obs-sdk')).toEqual([]);
  });

  it('Fastify platform, http + @fastify/otel instrumentations: Fastify spans skipped, the root re-rooted with a link, app exporter intact', async () => {
    local.server.reset();
    const r = await runScenario('otel-setup.cjs', { OTEL_INSTRUMENTATIONS: 'http,fastify', NEST_PLATFORM: 'fastify' }, 'nest-app.cjs');
    expect(r.body.answer).toBe('Refund approved. Hello there');
    expect(r.mode).toBe('attached');
    const spans = assertOneTree(r.traceId);
    expect(local.server.spans().length).toBe(spans.length);
    // @fastify/otel was active: its request span under the http span, its hooks' and handler's spans under it.
    const http = appScope(r, '@opentelemetry/instrumentation-http');
    expect(http.map((s) => s.name)).toEqual(['POST /chat']);
    const fastify = appScope(r, '@fastify/otel');
    const request = fastify.filter((s) => s.name === 'request');
    expect(request.map((s) => s.parentSpanId)).toEqual([http[0]!.spanId]);
    expect(fastify.filter((s) => s.name.startsWith('handler - ')).length).toBe(1);
    for (const s of fastify.filter((s) => s !== request[0])) expect(s.parentSpanId, s.name).toBe(request[0]!.spanId);
    // Nest's middleware (where the root starts) runs in middie's onRequest hook.
    const middie = fastify.find((s) => s.name === 'onRequest - runMiddie')!;
    expect(spans.find((s) => s.name === 'POST /chat')!.links.map((l) => l.spanId)).toEqual([middie.spanId]);
    expect(appScope(r, 'obs-sdk')).toEqual([]);
  });

  for (const [platform, instrumentations, scopes] of [
    [
      'express',
      'http,express,nestjs',
      ['@opentelemetry/instrumentation-express', '@opentelemetry/instrumentation-http', '@opentelemetry/instrumentation-nestjs-core'],
    ],
    ['fastify', 'http,fastify', ['@fastify/otel', '@opentelemetry/instrumentation-http']],
  ] as const) {
    it(`${platform} platform, frameworkSpans: "export": the framework spans reach obs, never as obs parents, nothing orphaned`, async () => {
      local.server.reset();
      const r = await runScenario(
        'otel-setup.cjs',
        { OTEL_INSTRUMENTATIONS: instrumentations, NEST_PLATFORM: platform, OBS_INIT_OPTIONS: keepFrameworkSpans },
        'nest-app.cjs',
      );
      expect(r.body.answer).toBe('Refund approved. Hello there');
      expect(assertFrameworkSpansKept(r)).toEqual(scopes);
    });
  }
});

// Node.js 22 behind `--experimental-async-context-frame` (Node.js 24's default): AsyncLocalStorage,
// and so OpenTelemetry's context manager, follows the request through the async context frame
// instead of a hook on every promise. READMEs recommend the flag for Nest on Node.js 22
// (bench/RESULTS.md, Nest); the request must still make one tree.
describe('one obs tree with AsyncLocalStorage on the async context frame', () => {
  // Node.js 24 rejects the flag: there the frame is the only AsyncLocalStorage.
  const frame = Number(process.versions.node.split('.')[0]) < 24 ? ['--experimental-async-context-frame'] : [];
  for (const app of ['app.cjs', 'nest-app.cjs']) {
    it(`${app === 'app.cjs' ? 'Express' : 'Nest'}: obs alone, its own provider`, async () => {
      local.server.reset();
      const r = await runScenario(undefined, {}, app, frame);
      expect(r.asyncContextFrame).toBe(true);
      expect(r.body.answer).toBe('Refund approved. Hello there');
      expect(r.mode).toBe('registered');
      const spans = assertOneTree(r.traceId);
      expect(local.server.spans().length).toBe(spans.length);
    });
  }
});

/**
 * One obs tree whatever else traces the app. Each scenario runs an app in its own process after a
 * real tracer setup was `--require`d: tests/foreign-tracers/app.cjs (Express with obsMiddleware)
 * next to OpenTelemetry http + express instrumentations, a plain NodeTracerProvider, Sentry 10 and
 * 11 the default and the documented way; tests/foreign-tracers/nest-app.cjs (Nest 11 with
 * ObsModule) next to http + express + nestjs-core on the Express platform and http +
 * `@fastify/otel` on the Fastify platform. Every app does the same request: an obs observation
 * around a LangChain chain and an AI SDK call (foreign-tracers/chat-work.cjs). The local obs
 * server must receive one tree rooted at the request root, no framework span, nothing orphaned;
 * the app's own exporter must still receive its spans, and (by default) no obs observation. The
 * last scenarios run both apps with obs alone on Node.js 22's async-context-frame
 * AsyncLocalStorage (`--experimental-async-context-frame`, Node.js 24's default).
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';

const here = join(dirname(fileURLToPath(import.meta.url)), 'foreign-tracers');
const local = setupObsServer({ reset: false });
interface AppSpan {
  name: string;
  scope: string;
  spanId: string;
  parentSpanId?: string;
}
interface Result {
  mode: string;
  traceId: string;
  body: { answer: string };
  appSpans: AppSpan[];
  /** Whether the app's AsyncLocalStorage ran on the async context frame. */
  asyncContextFrame: boolean;
}

/** Runs `app` after the tracer `setup` (none: obs alone), with `nodeFlags` for Node itself. */
function runScenario(setup: string | undefined, env: Record<string, string>, app = 'app.cjs', nodeFlags: string[] = []): Promise<Result> {
  return new Promise((resolve, reject) => {
    const preload = setup ? [setup.endsWith('.mjs') ? '--import' : '--require', join(here, setup)] : [];
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
      else resolve(JSON.parse(line.slice(7)) as Result);
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

describe('one obs tree next to other tracers', () => {
  it('OpenTelemetry http + express instrumentations: framework spans skipped, the root re-rooted with a link, app exporter intact', async () => {
    local.server.reset();
    const r = await runScenario('otel-setup.cjs', {});
    expect(r.body.answer).toBe('Refund approved. Hello there');
    expect(r.mode).toBe('attached');
    const spans = assertOneTree(r.traceId);
    const root = spans.find((s) => s.name === 'POST /chat')!;
    // The root's link names the framework span it was started under (express's obsMiddleware layer).
    const middleware = r.appSpans.find((s) => s.name === 'middleware - obsMiddleware')!;
    expect(root.links.map((l) => l.spanId)).toEqual([middleware.spanId]);
    expect(r.appSpans.filter((s) => s.scope === '@opentelemetry/instrumentation-http').map((s) => s.name)).toEqual(['POST /chat']);
    // The app's exporter: its http and express spans, and no obs observation (shareObservations off).
    expect(r.appSpans.filter((s) => s.scope === '@opentelemetry/instrumentation-express').map((s) => s.name)).toEqual([
      'middleware - obsMiddleware',
      'middleware - jsonParser',
      'request handler',
    ]);
    expect(r.appSpans.filter((s) => s.scope === 'obs-sdk')).toEqual([]);
    expect(local.server.spans().length).toBe(spans.length);
  });

  it('frameworkSpans: "export" and shareObservations: the framework spans reach obs, never as obs parents; the app exporter gets obs spans', async () => {
    local.server.reset();
    const r = await runScenario('otel-setup.cjs', { OBS_INIT_OPTIONS: keepFrameworkSpans });
    expect(assertFrameworkSpansKept(r)).toEqual(['@opentelemetry/instrumentation-express', '@opentelemetry/instrumentation-http']);
  });

  it('a plain NodeTracerProvider registered first: one tree, the app exporter keeps its own spans only', async () => {
    local.server.reset();
    const r = await runScenario('otel-setup.cjs', { OTEL_SCENARIO: 'plain' });
    expect(r.mode).toBe('attached');
    assertOneTree(r.traceId);
    expect(r.appSpans.filter((s) => s.scope === 'obs-sdk')).toEqual([]);
    // The AI SDK's spans are the app's too (it traces through the global provider).
    expect(r.appSpans.filter((s) => s.scope === 'gen_ai').length).toBeGreaterThanOrEqual(2);
  });

  for (const [major, pkg] of [
    ['10', '@sentry/node'],
    ['11', 'sentry-node-11'],
  ] as const) {
    for (const way of ['default', 'documented'] as const) {
      it(`Sentry ${major}, initialised the ${way} way: one tree, Sentry keeps working`, async () => {
        local.server.reset();
        const r = await runScenario('sentry-setup.mjs', { SENTRY_PACKAGE: pkg, SENTRY_WAY: way });
        expect(r.body.answer).toBe('Refund approved. Hello there');
        // Sentry 10 initialised the default way keeps its provider closed: obs runs isolated, and
        // the AI SDK's spans started inside obs work are bridged to obs's provider; either way one tree.
        const spans = assertOneTree(r.traceId);
        expect(local.server.spans().length).toBe(spans.length);
        expect(r.appSpans.filter((s) => obsNames.slice(1).includes(s.name))).toEqual([]);
        if (major === '10') {
          // Sentry 10 traces through OpenTelemetry: obs runs next to it and Sentry still sends its transaction.
          expect(r.mode).toBe(way === 'default' ? 'isolated' : 'attached');
          const tx = r.appSpans.filter((s) => s.scope === 'transaction');
          expect(tx.map((s) => s.name)).toEqual(['POST /chat']);
          expect(r.appSpans.filter((s) => s.scope === 'auto.http.express').length).toBeGreaterThanOrEqual(3);
        } else {
          // Sentry 11 no longer registers an OpenTelemetry tracer provider: obs registers its own,
          // and Sentry still streams its own spans (its Express handler spans) to its transport.
          expect(r.mode).toBe('registered');
          expect(r.appSpans.filter((s) => s.scope === 'auto.http.express').length).toBeGreaterThanOrEqual(1);
        }
      });
    }
  }
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

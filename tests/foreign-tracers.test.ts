/**
 * One obs tree whatever else traces the app. Each scenario runs tests/foreign-tracers/app.cjs (an
 * Express request with obsMiddleware, a LangChain chain, an AI SDK call and an obs observation)
 * in its own process after a real tracer setup was `--require`d: OpenTelemetry http + express
 * instrumentations, a plain NodeTracerProvider, Sentry 10 and 11 the default and the documented
 * way. The local obs server must receive one tree rooted at the request root, no framework span,
 * nothing orphaned; the app's own exporter must still receive its spans, and (by default) no obs
 * observation.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startObsServer, type DecodedSpan, type ObsServer } from '@obs/local-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const here = join(dirname(fileURLToPath(import.meta.url)), 'foreign-tracers');
let server: ObsServer;
beforeAll(async () => {
  server = await startObsServer({ quiet: true });
});
afterAll(async () => server?.close());

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
}

function runScenario(setup: string, env: Record<string, string>): Promise<Result> {
  return new Promise((resolve, reject) => {
    const flag = setup.endsWith('.mjs') ? '--import' : '--require';
    const child = spawn(process.execPath, [flag, join(here, setup), join(here, 'app.cjs')], {
      cwd: here,
      env: {
        ...process.env,
        OBS_BASE_URL: server.url,
        OBS_PUBLIC_KEY: server.publicKey,
        OBS_SECRET_KEY: server.secretKey,
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
  const spans = server.spans().filter((s) => s.traceId === traceId);
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

describe('one obs tree next to other tracers', () => {
  it('OpenTelemetry http + express instrumentations: framework spans skipped, the root re-rooted with a link, app exporter intact', async () => {
    server.reset();
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
    expect(server.spans().length).toBe(spans.length);
  });

  it('frameworkSpans: "export" and shareObservations: the framework spans reach obs, never as obs parents; the app exporter gets obs spans', async () => {
    server.reset();
    const r = await runScenario('otel-setup.cjs', {
      OBS_INIT_OPTIONS: JSON.stringify({ frameworkSpans: 'export', shareObservations: true }),
    });
    const all = server.spans().filter((s) => s.traceId === r.traceId);
    const obsSpans = all.filter((s) => !s.scope.name.startsWith('@opentelemetry/instrumentation-'));
    const framework = all.filter((s) => s.scope.name.startsWith('@opentelemetry/instrumentation-'));
    expect(framework.length).toBeGreaterThanOrEqual(3);
    const ids = new Set(all.map((s) => s.spanId));
    for (const s of all) if (s.parentSpanId) expect(ids.has(s.parentSpanId), `parent of ${s.name}`).toBe(true);
    const frameworkIds = new Set(framework.map((s) => s.spanId));
    for (const s of obsSpans) expect(frameworkIds.has(s.parentSpanId ?? ''), s.name).toBe(false);
    const root = obsSpans.find((s) => s.name === 'POST /chat')!;
    expect(root.parentSpanId).toBeUndefined();
    expect(frameworkIds.has(root.links[0]!.spanId)).toBe(true);
    expect(r.appSpans.map((s) => s.name)).toEqual(expect.arrayContaining(obsNames));
  });

  it('a plain NodeTracerProvider registered first: one tree, the app exporter keeps its own spans only', async () => {
    server.reset();
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
        server.reset();
        const r = await runScenario('sentry-setup.mjs', { SENTRY_PACKAGE: pkg, SENTRY_WAY: way });
        expect(r.body.answer).toBe('Refund approved. Hello there');
        // Sentry 10 initialised the default way keeps its provider closed: obs runs isolated, and
        // the AI SDK's spans started inside obs work are bridged to obs's provider; either way one tree.
        const spans = assertOneTree(r.traceId);
        expect(server.spans().length).toBe(spans.length);
        expect(r.appSpans.filter((s) => obsNames.slice(1).includes(s.name))).toEqual([]);
        if (major === '10') {
          // Sentry 10 traces through OpenTelemetry: obs runs next to it and Sentry still sends its transaction.
          expect(r.mode).toBe(way === 'default' ? 'isolated' : 'attached');
          const tx = r.appSpans.filter((s) => s.scope === 'transaction');
          expect(tx.map((s) => s.name)).toEqual(['POST /chat']);
          expect(r.appSpans.filter((s) => s.scope === 'auto.http.express').length).toBeGreaterThanOrEqual(3);
        } else {
          // Sentry 11 no longer registers an OpenTelemetry tracer provider: obs registers its own.
          expect(r.mode).toBe('registered');
        }
      });
    }
  }
});

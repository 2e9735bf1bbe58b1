/**
 * obs is never a silent no-op. An observation started before anything set obs up starts it from
 * the environment (as the adapters and wrappers do at their first request or call), so the
 * `@obs/openai` README's snippet (`startActiveObservation` around a wrapped call, no `initObs()`)
 * records one trace; without settings in the environment, one warning says nothing is sent. A
 * second `initObs()` with other options says in one line which are not applied and what is in
 * force (a secret never shown). A provider the app registers after obs says at the default log
 * level that it took over. Each test loads `@obs/core` afresh: obs starts itself once per process.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { setupObsServer } from '@obs/local-server/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ObsHandle } from '../../src/index.js';
import type { LogLevel, ObsLogger, setLogger } from '../../src/util/logger.js';
import { TRACING_KEYS } from '../tracing/harness.js';

const ENV_KEYS = ['OBS_PUBLIC_KEY', 'OBS_SECRET_KEY', 'OBS_BASE_URL', 'OBS_BASEURL', 'OBS_FLUSH_INTERVAL'];
const local = setupObsServer({ ...TRACING_KEYS, reset: false });
let core: typeof import('../../src/index.js');
let lines: { level: string; message: string }[];
let app: NodeTracerProvider | undefined;

/** The SDK logger at the default threshold (`warn`), into `lines`: what an app's console shows. */
async function defaultLevelLogs(): Promise<void> {
  lines = [];
  const { setLogger: set } = (await import('../../src/util/logger.js')) as { setLogger: typeof setLogger };
  const push = (level: string) => (message: string) => void lines.push({ level, message });
  const sink: ObsLogger = { debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') };
  set(sink, 'warn' satisfies LogLevel);
}

function useServerEnv(): void {
  process.env.OBS_BASE_URL = local.server.url;
  process.env.OBS_PUBLIC_KEY = local.server.publicKey;
  process.env.OBS_SECRET_KEY = local.server.secretKey;
  process.env.OBS_FLUSH_INTERVAL = '0.02';
}

beforeEach(async () => {
  for (const k of ENV_KEYS) delete process.env[k];
  vi.resetModules();
  core = await import('../../src/index.js');
  await defaultLevelLogs();
});
afterEach(async () => {
  await core.getObsHandle()?.shutdown({ timeoutMs: 1000 });
  await app?.shutdown();
  app = undefined;
  trace.disable();
  context.disable();
  propagation.disable();
  for (const k of ENV_KEYS) delete process.env[k];
  local.server.reset();
});

const shown = () => lines.map((l) => `${l.level}: ${l.message}`);

describe('an observation before initObs()', () => {
  it('starts obs from the environment: the observation and its child arrive as one trace; the start-up line is the one line', async () => {
    useServerEnv();
    expect(core.getObsHandle()).toBeUndefined();
    const traceId = await core.startActiveObservation('support-answer', async (root) => {
      await new Promise((r) => setTimeout(r, 1));
      core.startObservation('openai.chat.completions.create', {}, { asType: 'generation' }).end();
      return root.traceId;
    });
    const handle = core.getObsHandle() as ObsHandle;
    expect(handle?.mode).toBe('registered');
    await handle.flush();
    const spans = local.server.spansByTrace(traceId);
    expect(spans.map((s) => s.name).sort()).toEqual(['openai.chat.completions.create', 'support-answer']);
    const root = spans.find((s) => s.name === 'support-answer')!;
    expect(spans.find((s) => s.name !== 'support-answer')!.parentSpanId).toBe(root.spanId);
    expect(shown()).toEqual([
      `info: [obs] on: exporting to ${local.server.url} (obs registered its own tracer provider; OBS_DEBUG=1 explains more)`,
    ]);
  });

  it('observe() before initObs() too, and a wrapper calling getObsHandle() ?? initObs() inside finds that handle', async () => {
    useServerEnv();
    let inner: ObsHandle | undefined;
    const answer = core.observe(
      async () => {
        inner = core.getObsHandle() ?? core.initObs();
        return 42;
      },
      { name: 'observed' },
    );
    expect(await answer()).toBe(42);
    expect(inner).toBe(core.getObsHandle());
    await inner!.flush();
    expect(local.server.spansByName('observed')).toHaveLength(1);
    expect(lines.filter((l) => l.level === 'warn')).toEqual([]);
  });

  it('without settings in the environment: nothing throws, nothing is sent, and one warning says why', async () => {
    expect(() => core.startObservation('lost').end()).not.toThrow();
    core.startActiveObservation('lost-too', () => undefined);
    await core.getObsHandle()?.flush({ timeoutMs: 100 });
    expect(local.server.spans()).toHaveLength(0);
    expect(shown()).toEqual([
      expect.stringMatching(/^warn: \[obs\] obs is not configured: missing publicKey \(OBS_PUBLIC_KEY\), secretKey/),
    ]);
  });

  it('initObs() with options after obs started itself: one line naming what is not applied and what to do', async () => {
    useServerEnv();
    core.startObservation('first').end();
    lines.length = 0;
    const handle = core.initObs({ baseUrl: 'http://127.0.0.1:1', flushAt: 10 });
    expect(handle).toBe(core.getObsHandle());
    expect(shown()).toEqual([
      'warn: [obs] initObs: obs is set up already, so this call changes nothing: baseUrl "http://127.0.0.1:1" (in force: the environment or the default), flushAt 10 (in force: the environment or the default); obs started itself at the first observation, before this call: call initObs() before any observation to choose its options',
    ]);
  });
});

describe('initObs() twice', () => {
  it('with other options: one line naming each (a secret key never shown) and what is in force; the same options again: no line', async () => {
    const s = local.server;
    const first = core.initObs({ baseUrl: s.url, publicKey: s.publicKey, secretKey: s.secretKey, flushOnExit: false, environment: 'prod' });
    lines.length = 0;
    expect(core.initObs({ baseUrl: s.url, publicKey: s.publicKey, secretKey: s.secretKey, flushOnExit: false })).toBe(first);
    expect(core.initObs({ environment: 'prod', debug: false })).toBe(first);
    expect(lines).toEqual([]);
    core.initObs({ baseUrl: 'http://other:3000', secretKey: 'sk-other-secret', environment: 'staging', mask: (v) => v });
    expect(shown()).toEqual([
      `warn: [obs] initObs: obs is set up already, so this call changes nothing: baseUrl "http://other:3000" (in force: "${s.url}"), secretKey (another one; not shown), environment "staging" (in force: "prod"), mask (a function) (in force: the default); shut the handle down first to start again with them`,
    ]);
    expect(lines.join(' ')).not.toContain('sk-other-secret');
  });
});

describe('a tracer provider registered after obs', () => {
  it('says at the default log level that it took over and what obs did', async () => {
    const s = local.server;
    core.initObs({ baseUrl: s.url, publicKey: s.publicKey, secretKey: s.secretKey, flushOnExit: false });
    app = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] });
    app.register();
    expect(shown()).toEqual([
      `info: [obs] on: exporting to ${s.url} (obs registered its own tracer provider; OBS_DEBUG=1 explains more)`,
      'info: [obs] initObs: NodeTracerProvider with SimpleSpanProcessor was registered after obs and took over the global tracer provider; obs attached its span processor to it',
    ]);
  });
});

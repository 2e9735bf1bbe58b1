/**
 * `initObs()`: one call sets tracing up; idempotent; never throws; detects a provider that is
 * already registered and attaches to it (or isolates obs spans), logging which mode it chose.
 */
import { context, propagation, trace, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getObsHandle, initObs, startActiveObservation, startObservation, type ObsHandle } from '../../src/index.js';
import {
  captureLogs,
  only,
  PACKAGE_VERSION,
  restoreLogger,
  TRACING_KEYS,
  traceRequests,
  warnings,
  type LogLine,
} from '../tracing/harness.js';
import { setupObsServer } from '@obs/local-server/testing';

const ENV_KEYS = ['OBS_PUBLIC_KEY', 'OBS_SECRET_KEY', 'OBS_BASE_URL', 'OBS_BASEURL'];

const local = setupObsServer({ ...TRACING_KEYS, reset: false });
let handle: ObsHandle | undefined;
let foreign: NodeTracerProvider | undefined;
let logs: LogLine[];

beforeEach(() => {
  for (const k of ENV_KEYS) delete process.env[k];
  logs = captureLogs();
});
afterEach(async () => {
  await handle?.shutdown();
  handle = undefined;
  await foreign?.shutdown();
  foreign = undefined;
  trace.disable();
  context.disable();
  propagation.disable();
  restoreLogger();
  local.server.reset();
});

function options() {
  return {
    baseUrl: local.server.url,
    publicKey: local.server.publicKey,
    secretKey: local.server.secretKey,
    flushInterval: 0.02,
    backoffMs: 5,
    flushOnExit: false,
  };
}

const infos = () => logs.filter((l) => l.level === 'info').map((l) => l.message);

describe('initObs', () => {
  it('registers a provider and async context; obs spans reach the server; logs the mode', async () => {
    handle = initObs({ ...options(), environment: 'init-env', release: 'init-rel' });
    expect(handle.mode).toBe('registered');
    expect(handle.spanProcessor.enabled).toBe(true);
    expect(infos().some((m) => /registered/.test(m))).toBe(true);
    await startActiveObservation('init-root', async () => {
      await new Promise((r) => setTimeout(r, 2));
      startObservation('init-child').end();
    });
    await handle.flush();
    const root = only(local.server, 'init-root');
    expect(only(local.server, 'init-child').parentSpanId).toBe(root.spanId);
    expect(root.attributes['obs.environment']).toBe('init-env');
    expect(root.attributes['obs.release']).toBe('init-rel');
    // The SDK's default resource has a service.name too: assert obs's own defaults.
    expect(root.resource).toMatchObject({
      'service.name': process.env.OTEL_SERVICE_NAME ?? 'obs-app',
      'telemetry.sdk.name': 'obs',
      'telemetry.sdk.version': PACKAGE_VERSION,
    });
  });

  it('is idempotent: a second call returns the same handle and adds no second processor', async () => {
    handle = initObs(options());
    const again = initObs({ ...options(), environment: 'ignored' });
    expect(again).toBe(handle);
    expect(getObsHandle()).toBe(handle);
    startObservation('once').end();
    await handle.flush();
    expect(local.server.spansByName('once')).toHaveLength(1);
    expect(traceRequests(local.server)).toHaveLength(1);
  });

  it('after shutdown() a new initObs() makes a new handle', async () => {
    const first = initObs(options());
    await first.shutdown();
    expect(getObsHandle()).toBeUndefined();
    trace.disable();
    context.disable();
    propagation.disable();
    handle = initObs(options());
    expect(handle).not.toBe(first);
    startObservation('second-life').end();
    await handle.flush();
    expect(local.server.spansByName('second-life')).toHaveLength(1);
  });

  it('missing keys: one clear warning, no throw, nothing exported', async () => {
    handle = initObs({ baseUrl: local.server.url, flushOnExit: false, flushInterval: 0.02 });
    expect(handle.spanProcessor.enabled).toBe(false);
    await startActiveObservation('not-exported', async () => {
      startObservation('not-exported-child').end();
    });
    await expect(handle.flush()).resolves.toBeUndefined();
    await new Promise((r) => setTimeout(r, 50));
    expect(local.server.requests).toHaveLength(0);
    const warned = warnings(logs);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/publicKey/);
    expect(warned[0]).toMatch(/secretKey/);
    expect(warned[0]).not.toMatch(/baseUrl/);
  });

  it('missing base URL: one warning naming it, nothing thrown (fresh module: the warning is once per process)', async () => {
    vi.resetModules();
    const fresh = (await import('../../src/index.js')) as typeof import('../../src/index.js');
    const lines: string[] = [];
    const push = (m: string) => void lines.push(m);
    fresh.setLogger({ debug: () => {}, info: () => {}, warn: push, error: push }, 'debug');
    handle = fresh.initObs({ publicKey: 'pk-x', secretKey: 'sk-hidden-value', flushOnExit: false });
    expect(handle.spanProcessor.enabled).toBe(false);
    fresh.startObservation('nowhere').end();
    await handle.flush();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/baseUrl|OBS_BASE_URL/);
    expect(lines[0]).not.toMatch(/publicKey|secretKey/);
    expect(lines.join('\n')).not.toContain('sk-hidden-value');
  });

  it('with a foreign NodeTracerProvider already registered: attaches, and both obs and foreign spans inside an observation arrive', async () => {
    const memory = new InMemorySpanExporter();
    foreign = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
    foreign.register();
    handle = initObs(options());
    expect(handle.mode).toBe('attached');
    expect(
      infos()
        .concat(warnings(logs))
        .some((m) => /attached/.test(m)),
    ).toBe(true);

    const foreignTracer: Tracer = trace.getTracer('sentry-like');
    foreignTracer.startSpan('foreign-outside').end();
    await startActiveObservation('attached-root', async () => {
      await new Promise((r) => setTimeout(r, 2));
      foreignTracer.startActiveSpan('foreign-inside', (s) => {
        startObservation('obs-under-foreign').end();
        s.end();
      });
    });
    await handle.flush();

    const root = only(local.server, 'attached-root');
    const inside = only(local.server, 'foreign-inside');
    expect(inside.parentSpanId).toBe(root.spanId);
    expect(inside.scope.name).toBe('sentry-like');
    expect(only(local.server, 'obs-under-foreign').parentSpanId).toBe(inside.spanId);
    expect(local.server.spansByName('foreign-outside')).toHaveLength(0);
    // The foreign pipeline still gets every span of its own tracers: obs took nothing away, and
    // obs observations stay out of it (shareObservations defaults to false).
    expect(
      memory
        .getFinishedSpans()
        .map((s) => s.name)
        .sort(),
    ).toEqual(['foreign-inside', 'foreign-outside']);
  });

  it('shareObservations: true sends obs observations to the foreign pipeline too', async () => {
    const memory = new InMemorySpanExporter();
    foreign = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
    foreign.register();
    handle = initObs({ ...options(), shareObservations: true });
    expect(handle.mode).toBe('attached');
    await startActiveObservation('shared-root', async () => {
      trace.getTracer('sentry-like').startSpan('foreign-inside').end();
    });
    await handle.flush();
    expect(
      memory
        .getFinishedSpans()
        .map((s) => s.name)
        .sort(),
    ).toEqual(['foreign-inside', 'shared-root']);
    expect(only(local.server, 'foreign-inside').parentSpanId).toBe(only(local.server, 'shared-root').spanId);
  });

  it('attached to a provider registered without a context manager: obs still nests (async context is ensured)', async () => {
    foreign = new NodeTracerProvider();
    // Only the provider, as some set-ups do: no context manager, no propagator.
    trace.setGlobalTracerProvider(foreign);
    handle = initObs(options());
    expect(handle.mode).toBe('attached');
    await startActiveObservation('ctx-root', async () => {
      await new Promise((r) => setTimeout(r, 2));
      startObservation('ctx-child').end();
    });
    await handle.flush();
    expect(only(local.server, 'ctx-child').parentSpanId).toBe(only(local.server, 'ctx-root').spanId);
  });

  it('shutdown() then initObs() again starts clean: registered mode with the new options, not attached to the old provider', async () => {
    const first = initObs({ ...options(), serviceName: 'first-service' });
    expect(first.mode).toBe('registered');
    startObservation('first-life').end();
    await first.shutdown();
    logs.length = 0;
    handle = initObs({ ...options(), serviceName: 'second-service' });
    expect(handle.mode).toBe('registered');
    expect(
      infos()
        .concat(warnings(logs))
        .some((m) => /attached|isolated/.test(m)),
    ).toBe(false);
    startObservation('second-life-2').end();
    await handle.flush();
    expect(only(local.server, 'first-life').resource['service.name']).toBe('first-service');
    expect(only(local.server, 'second-life-2').resource['service.name']).toBe('second-service');
  });

  it('with a foreign provider that takes no processors: obs spans use an isolated provider and still arrive; it warns', async () => {
    const memory = new InMemorySpanExporter();
    const inner = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
    // A provider whose processors cannot be reached (a wrapper, like some vendor SDKs).
    const opaque: TracerProvider = { getTracer: (name: string, version?: string) => inner.getTracer(name, version) };
    trace.setGlobalTracerProvider(opaque);
    handle = initObs(options());
    expect(handle.mode).toBe('isolated');
    expect(warnings(logs).some((m) => /isolated/.test(m))).toBe(true);
    await startActiveObservation('isolated-root', async () => {
      await new Promise((r) => setTimeout(r, 2));
      startObservation('isolated-child').end();
    });
    await handle.flush();
    expect(only(local.server, 'isolated-child').parentSpanId).toBe(only(local.server, 'isolated-root').spanId);
    await inner.shutdown();
  });

  it('env: a Worker’s bindings are its settings (process.env empty); non-string bindings ignored; the next initObs reads its own', async () => {
    handle = initObs({
      flushOnExit: false,
      flushInterval: 0.02,
      env: {
        OBS_BASE_URL: local.server.url,
        OBS_PUBLIC_KEY: local.server.publicKey,
        OBS_SECRET_KEY: local.server.secretKey,
        OTEL_SERVICE_NAME: 'worker-app',
        KV: { get: () => undefined },
      },
    });
    expect(handle.spanProcessor.enabled).toBe(true);
    startObservation('from-bindings').end();
    await handle.flush();
    expect(only(local.server, 'from-bindings').resource['service.name']).toBe('worker-app');
    expect(warnings(logs)).toEqual([]);
    await handle.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
    handle = initObs({ flushOnExit: false });
    expect(handle.spanProcessor.enabled).toBe(false);
  });
});

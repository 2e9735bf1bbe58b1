/**
 * A tracer the app initialises after `initObs()` takes over the global slots obs filled: its
 * provider, context manager and propagator are registered whatever order it registers them in
 * (trace first as `NodeTracerProvider.register()` and Sentry do, context first as NodeSDK 3 and
 * `@vercel/otel` do); obs attaches its processor to the new provider (or isolates its spans when
 * the provider takes no processors), tracers handed out before follow, and obs observations still
 * reach obs only. The end-to-end tests with the real packages are in tests/foreign-tracers.test.ts.
 */
import { context, propagation, ROOT_CONTEXT, trace, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { setupObsServer } from '@obs/local-server/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { initObs, startActiveObservation, type ObsHandle } from '../../src/index.js';
import { ObsContextManager } from '../../src/tracing/provider/context-manager.js';
import { CompositePropagator as ObsCompositePropagator } from '../../src/tracing/provider/propagators.js';
import { captureLogs, restoreLogger, TRACING_KEYS, type LogLine } from '../tracing/harness.js';

const local = setupObsServer({ ...TRACING_KEYS, reset: false });
let handle: ObsHandle | undefined;
let app: NodeTracerProvider | undefined;
let logs: LogLine[];

beforeEach(() => {
  trace.disable();
  context.disable();
  propagation.disable();
  logs = captureLogs();
});
afterEach(async () => {
  await handle?.shutdown();
  handle = undefined;
  await app?.shutdown();
  app = undefined;
  trace.disable();
  context.disable();
  propagation.disable();
  restoreLogger();
  local.server.reset();
});

function startObs(extra: Record<string, unknown> = {}): ObsHandle {
  const s = local.server;
  return initObs({ baseUrl: s.url, publicKey: s.publicKey, secretKey: s.secretKey, flushInterval: 0.02, flushOnExit: false, ...extra });
}

const globalSlots = () =>
  (globalThis as Record<symbol, { trace?: { getDelegate(): unknown }; context?: unknown; propagation?: unknown }>)[
    Symbol.for('opentelemetry.js.api.1')
  ]!;

/** The app's provider (not registered yet), exporting to the memory exporter returned. */
function newAppProvider(): InMemorySpanExporter {
  const exporter = new InMemorySpanExporter();
  app = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return exporter;
}

/** The names of the spans obs received of a trace, sorted. */
const obsNames = (traceId: string) =>
  local.server
    .spansByTrace(traceId)
    .map((s) => s.name)
    .sort();

/** One obs observation with an app span inside, and an app span outside any observation. */
async function traffic(tracer: Tracer): Promise<string> {
  const traceId = await startActiveObservation('obs-root', async (root) => {
    await new Promise((r) => setTimeout(r, 1));
    tracer.startSpan('app-inside').end();
    return root.traceId;
  });
  tracer.startSpan('app-outside').end();
  await handle!.flush();
  return traceId;
}

describe('a tracer initialised after obs', () => {
  it("NodeTracerProvider.register() (trace, then context, then propagation): all three are the app's, obs attaches, early tracers follow", async () => {
    handle = startObs();
    expect(handle.mode).toBe('registered');
    // An instrumentation that took its tracer (and traced) before the app's provider existed.
    const early = trace.getTracer('early-instrumentation');
    early.startSpan('before-app').end();
    const exporter = newAppProvider();
    const contextManager = new AsyncLocalStorageContextManager();
    const propagator = new W3CTraceContextPropagator();
    app.register({ contextManager, propagator });

    expect(globalSlots().trace?.getDelegate()).toBe(app);
    expect(globalSlots().context).toBe(contextManager);
    expect(globalSlots().propagation).toBe(propagator);
    expect(handle.mode).toBe('attached');
    expect(logs.filter((l) => l.message.includes('was registered after obs'))).toEqual([
      expect.objectContaining({
        level: 'info',
        message: expect.stringContaining(
          'NodeTracerProvider with SimpleSpanProcessor was registered after obs and took over the global tracer provider; obs attached its span processor to it',
        ),
      }),
    ]);

    const traceId = await traffic(early);
    // The app's exporter: every span of its tracers since it registered, and no obs observation.
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['app-inside', 'app-outside']);
    // obs: the observation and the app span inside it (one tree), nothing from outside obs work.
    const spans = local.server.spansByTrace(traceId);
    const root = spans.find((s) => s.name === 'obs-root')!;
    expect(spans.map((s) => s.name).sort()).toEqual(['app-inside', 'obs-root']);
    expect(spans.find((s) => s.name === 'app-inside')!.parentSpanId).toBe(root.spanId);
    expect(local.server.spans().map((s) => s.name)).not.toContain('app-outside');
  });

  it("context manager and propagator first, then the provider (NodeSDK 3, @vercel/otel): all three are the app's", async () => {
    handle = startObs();
    expect(globalSlots().context).toBeInstanceOf(ObsContextManager);
    const contextManager = new AsyncLocalStorageContextManager().enable();
    const propagator = new W3CTraceContextPropagator();
    expect(context.setGlobalContextManager(contextManager)).toBe(true);
    expect(propagation.setGlobalPropagator(propagator)).toBe(true);
    const exporter = newAppProvider();
    expect(trace.setGlobalTracerProvider(app)).toBe(true);
    expect(globalSlots().context).toBe(contextManager);
    expect(globalSlots().propagation).toBe(propagator);
    expect(handle.mode).toBe('attached');
    const traceId = await traffic(trace.getTracer('app'));
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['app-inside', 'app-outside']);
    expect(obsNames(traceId)).toEqual(['app-inside', 'obs-root']);
  });

  it('a bare trace.setGlobalTracerProvider(): obs keeps its context manager, so observations still nest', async () => {
    handle = startObs();
    const exporter = newAppProvider();
    expect(trace.setGlobalTracerProvider(app)).toBe(true);
    expect(globalSlots().context).toBeInstanceOf(ObsContextManager);
    const traceId = await traffic(trace.getTracer('app'));
    expect(obsNames(traceId)).toEqual(['app-inside', 'obs-root']);
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['app-inside', 'app-outside']);
  });

  it('a provider that takes no processors: obs spans run isolated, one warning; the app keeps its spans', async () => {
    handle = startObs();
    const exporter = new InMemorySpanExporter();
    const inner = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    // A provider of its own kind, as Sentry's: no processor list to join.
    const closed: TracerProvider = { getTracer: (name, version, options) => inner.getTracer(name, version, options) };
    expect(trace.setGlobalTracerProvider(closed)).toBe(true);
    expect(handle.mode).toBe('isolated');
    expect(logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      expect.stringContaining(
        'was registered after obs and took over the global tracer provider and it cannot take the obs span processor',
      ),
    ]);
    const traceId = await traffic(trace.getTracer('app'));
    expect(local.server.spansByTrace(traceId).map((s) => s.name)).toEqual(['obs-root']);
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['app-inside', 'app-outside']);
    await inner.shutdown();
  });

  it("shareObservations: obs observations go through the app's provider to both", async () => {
    handle = startObs({ shareObservations: true });
    const exporter = newAppProvider();
    app.register();
    const traceId = await traffic(trace.getTracer('app'));
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['app-inside', 'obs-root', 'app-outside']);
    expect(obsNames(traceId)).toEqual(['app-inside', 'obs-root']);
  });

  it("after obs shut down, a new provider is simply registered; obs's shutdown never takes out the app's", async () => {
    handle = startObs();
    app = new NodeTracerProvider();
    app.register();
    await handle.shutdown();
    handle = undefined;
    expect(globalSlots().trace?.getDelegate()).toBe(app);
    // Nothing of obs left in the tracer provider slot: a second initObs attaches to the app's.
    handle = startObs();
    expect(handle.mode).toBe('attached');
  });

  it("initObs, shutdown, initObs again, then the app's tracer: its context manager and propagator still take the slots", async () => {
    handle = startObs();
    await handle.shutdown();
    handle = startObs();
    expect(logs.filter((l) => l.level === 'error')).toEqual([]);
    app = new NodeTracerProvider();
    app.register();
    expect(globalSlots().trace?.getDelegate()).toBe(app);
    expect(globalSlots().context).toBeInstanceOf(AsyncLocalStorageContextManager);
    // The SDK's composite (a copy of @opentelemetry/core of its own), not obs's.
    expect(globalSlots().propagation).not.toBeInstanceOf(ObsCompositePropagator);
    expect((globalSlots().propagation as { fields(): string[] }).fields()).toEqual(['traceparent', 'tracestate', 'baggage']);
    expect(handle.mode).toBe('attached');
  });

  it('the app sees its span inside an observation under its own nearest span; obs under the observation', async () => {
    for (const order of ['app first', 'obs first'] as const) {
      const exporter = new InMemorySpanExporter();
      const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
      if (order === 'obs first') handle = startObs();
      provider.register();
      handle ??= startObs();
      const tracer = trace.getTracer('app');
      const traceId = await tracer.startActiveSpan('app-outer', async (outer) => {
        const id = await startActiveObservation('obs-root', async (root) => {
          tracer.startSpan('app-inside').end();
          return root.traceId;
        });
        outer.end();
        return id;
      });
      await handle.flush();
      const mine = exporter.getFinishedSpans();
      const outer = mine.find((s) => s.name === 'app-outer')!;
      expect(
        mine.map((s) => s.name),
        order,
      ).toEqual(['app-inside', 'app-outer']);
      expect(mine.find((s) => s.name === 'app-inside')!.parentSpanContext?.spanId, order).toBe(outer.spanContext().spanId);
      const theirs = local.server.spansByTrace(traceId);
      const inside = theirs.find((s) => s.name === 'app-inside')!;
      expect(inside.parentSpanId, order).toBe(theirs.find((s) => s.name === 'obs-root')!.spanId);
      expect(inside.links, order).toEqual([]);
      await handle.shutdown();
      handle = undefined;
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
      local.server.reset();
    }
  });

  it("a second registration after the app's fails as it does without obs", () => {
    handle = startObs();
    app = new NodeTracerProvider();
    app.register();
    expect(trace.setGlobalTracerProvider(new NodeTracerProvider())).toBe(false);
    expect(globalSlots().trace?.getDelegate()).toBe(app);
    expect(context.active()).toBe(ROOT_CONTEXT);
  });
});

import { context, createContextKey, propagation, ProxyTracerProvider, trace, type TracerProvider } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ObsClient } from './client/client.js';
import type { ObsClientOptions } from './client/options.js';
import { ObsSpanProcessor, type ObsSpanProcessorOptions } from './export/span-processor.js';
import { settleBeforeFlush } from './flush-barrier.js';
import { logger, setLogLevel } from './logger.js';
import { installShutdownHooks } from './shutdown-hooks.js';
import { LightTracerProvider } from './tracing/provider/light-provider.js';
import { reportStartup } from './startup-report.js';
import { bridgeLlmTracers } from './tracing/llm-tracer-bridge.js';
import { setObsTracerProvider } from './tracing/tracer.js';
import { SDK_VERSION } from './version.js';

/** Options of `initObs`: the span processor's, plus a few of the process's. */
export interface ObsInitOptions extends ObsSpanProcessorOptions {
  /** `service.name` of the resource; default `OTEL_SERVICE_NAME` or `obs-app`. */
  serviceName?: string;
  /** Options of the `ObsClient` (scores, API) beyond the shared keys and base URL. */
  client?: Omit<ObsClientOptions, 'publicKey' | 'secretKey' | 'baseUrl'>;
  /**
   * More span processors for the provider obs creates, run before obs's own so they can adjust
   * spans before export (ignored when obs attaches to an existing provider).
   */
  spanProcessors?: SpanProcessor[];
  /** Flush on `beforeExit`, SIGTERM and SIGINT; default true. */
  flushOnExit?: boolean;
  /** Log a diagnosis of the set-up at start and a line per export (same as `OBS_DEBUG=1`). */
  debug?: boolean;
  /**
   * When obs attaches to the app's tracer provider (Sentry, `@vercel/otel`, your own): whether
   * obs observations (with their inputs, outputs and prompts) also go to the app's other span
   * processors and exporters. Default false: they go to obs only, and the app's own spans still
   * reach both as before.
   */
  shareObservations?: boolean;
}

/** How `initObs` wired obs spans into the process. */
export type ObsTracingMode = 'registered' | 'attached' | 'isolated';

/** What `initObs` returns: the client, the processor, and flush/shutdown of both. */
export interface ObsHandle {
  client: ObsClient;
  spanProcessor: ObsSpanProcessor;
  /** `registered`: obs owns the global provider; `attached`: obs added its processor to an existing one; `isolated`: obs spans use a private provider. */
  mode: ObsTracingMode;
  /** Resolves when every span and score accepted so far is on the server. */
  flush(): Promise<void>;
  /** Flushes, then stops exporting. */
  shutdown(): Promise<void>;
}

const HANDLE_SLOT = Symbol.for('obs.handle');
type Slot = { [HANDLE_SLOT]?: ObsHandle };

/** The handle of an earlier `initObs`, if any (adapters use it to decide whether to init). */
export function getObsHandle(): ObsHandle | undefined {
  return (globalThis as Slot)[HANDLE_SLOT];
}

/**
 * Sets tracing up in one call: tracer provider, async context, `ObsSpanProcessor`, client.
 * Idempotent: a second call returns the first handle (dev reloads, several adapters). When
 * another tracer provider is registered (Sentry, `@vercel/otel`), obs attaches its processor
 * to it where it can, else runs an isolated provider for obs spans, and logs which it chose.
 * Never throws: without keys or base URL it warns once and exports nothing.
 */
export function initObs(options: ObsInitOptions = {}): ObsHandle {
  if (options.debug) setLogLevel('debug');
  const existing = getObsHandle();
  if (existing) {
    logger.debug('initObs: already initialised, returning the existing handle');
    return existing;
  }
  // A provider the user built with ObsSpanProcessor already exports obs spans: reuse it.
  const foreign = registeredProvider();
  const existingProcessor = foreign ? findObsProcessor(foreign) : undefined;
  const spanProcessor = existingProcessor ?? new ObsSpanProcessor(options);
  const client = new ObsClient({
    publicKey: options.publicKey,
    secretKey: options.secretKey,
    baseUrl: options.baseUrl,
    environment: options.environment,
    ...options.client,
  });
  const { mode, provider } = existingProcessor
    ? { mode: 'attached' as const, provider: privateProvider(spanProcessor, options) }
    : wireProvider(spanProcessor, options);
  const handle: ObsHandle = {
    client,
    spanProcessor,
    mode,
    async flush() {
      await settleBeforeFlush();
      await Promise.all([spanProcessor.forceFlush(), client.flush()]);
    },
    async shutdown() {
      await settleBeforeFlush();
      await Promise.all([provider ? provider.shutdown() : spanProcessor.shutdown(), client.shutdown()]);
      if (getObsHandle() === handle) delete (globalThis as Slot)[HANDLE_SLOT];
      if (mode !== 'registered') setObsTracerProvider(undefined);
      isolatedBridge?.();
      isolatedBridge = undefined;
      // Unregister the provider we registered, so a later initObs() starts clean instead of
      // "attaching" to this shut-down one (and ignoring its new options).
      if (mode === 'registered' && provider && registeredProvider() === provider) trace.disable();
    },
  };
  (globalThis as Slot)[HANDLE_SLOT] = handle;
  if (options.flushOnExit !== false) {
    // Bounded, so a black-holed server cannot hold the process past a grace period.
    installShutdownHooks(
      async () => void (await Promise.all([spanProcessor.flushWithin(), client.flush()])),
      spanProcessor.shutdownTimeoutMs,
    );
  }
  reportStartup({ mode, exporting: spanProcessor.enabled, foreign, options });
  return handle;
}

/** Removes the isolated mode's LLM tracer bridge (see tracing/llm-tracer-bridge.ts). */
let isolatedBridge: (() => void) | undefined;

function wireProvider(processor: SpanProcessor, options: ObsInitOptions): { mode: ObsTracingMode; provider?: OwnProvider } {
  const foreign = registeredProvider();
  if (foreign && attachProcessor(foreign, processor)) {
    // A provider set with trace.setGlobalTracerProvider() alone has no async context: without
    // it observations would not nest and propagateAttributes would not reach child spans.
    ensureContextManager();
    logger.info('initObs: another OpenTelemetry tracer provider is registered; obs attached its span processor to it');
    return { mode: 'attached', provider: privateProvider(processor, options) };
  }
  const provider = obsProvider(processor, options);
  if (!foreign) {
    provider.register();
    return { mode: 'registered', provider };
  }
  // Someone else owns the global provider and it takes no processors: keep obs spans apart
  // rather than dropping them, and make sure async context still flows.
  ensureContextManager();
  setObsTracerProvider(provider);
  // LLM libraries' spans inside obs work still join the obs tree.
  isolatedBridge = bridgeLlmTracers(foreign, provider);
  logger.warn(
    'initObs: another OpenTelemetry tracer provider is registered and cannot take the obs span processor; ' +
      "obs spans use an isolated provider (spans of other tracers are not exported to obs, but LLM libraries' spans inside obs work are). " +
      'Add ObsSpanProcessor to your provider to trace everything.',
  );
  return { mode: 'isolated', provider };
}

/**
 * Attached to the app's provider: obs observations start on a provider of their own (same
 * context, so they nest as before) unless `shareObservations`, so prompts and outputs do not
 * reach the app's other exporters.
 */
function privateProvider(processor: SpanProcessor, options: ObsInitOptions): OwnProvider | undefined {
  if (options.shareObservations) return undefined;
  ensureContextManager();
  const provider = obsProvider(processor, { ...options, spanProcessors: [] });
  setObsTracerProvider(provider);
  return provider;
}

/** A tracer provider obs creates: its own light one, or the SDK's when a sampler is configured. */
type OwnProvider = LightTracerProvider | NodeTracerProvider;

function obsProvider(processor: SpanProcessor, options: ObsInitOptions): OwnProvider {
  const settings = {
    resource: resourceFromAttributes({
      'service.name': options.serviceName ?? process.env.OTEL_SERVICE_NAME ?? 'obs-app',
      'telemetry.sdk.name': 'obs',
      'telemetry.sdk.version': SDK_VERSION,
    }),
    spanProcessors: [...(options.spanProcessors ?? []), processor],
  };
  // The light provider samples everything (parent-based); a configured sampler needs the SDK's.
  return process.env.OTEL_TRACES_SAMPLER ? new NodeTracerProvider(settings) : new LightTracerProvider(settings);
}

/** The globally registered SDK provider, unless it is the no-op one. */
function registeredProvider(): TracerProvider | undefined {
  const global = trace.getTracerProvider() as TracerProvider & { getDelegate?: () => TracerProvider };
  const delegate = global.getDelegate ? global.getDelegate() : global;
  return isNoopProvider(delegate) ? undefined : delegate;
}

/**
 * Identity first: bundlers that minify (Next.js server bundles) rename the API's
 * `NoopTracerProvider`, but the no-op delegate of an unregistered proxy is the same singleton.
 */
function isNoopProvider(provider: TracerProvider): boolean {
  return provider === new ProxyTracerProvider().getDelegate() || provider.constructor?.name === 'NoopTracerProvider';
}

function processorsOf(provider: TracerProvider): SpanProcessor[] | undefined {
  const list = (provider as { _activeSpanProcessor?: { _spanProcessors?: SpanProcessor[] } })._activeSpanProcessor?._spanProcessors;
  return Array.isArray(list) ? list : undefined;
}

function findObsProcessor(provider: TracerProvider): ObsSpanProcessor | undefined {
  return processorsOf(provider)?.find((p): p is ObsSpanProcessor => p instanceof ObsSpanProcessor);
}

/** Adds our processor to a provider: the public API of SDK 1.x, else SDK 2.x's processor list. */
function attachProcessor(provider: TracerProvider, processor: SpanProcessor): boolean {
  const p = provider as TracerProvider & {
    addSpanProcessor?: (sp: SpanProcessor) => void;
    _activeSpanProcessor?: { _spanProcessors?: SpanProcessor[] };
  };
  try {
    if (typeof p.addSpanProcessor === 'function') {
      p.addSpanProcessor(processor);
      return true;
    }
    const list = processorsOf(p);
    if (list) {
      list.push(processor);
      return true;
    }
  } catch (err) {
    logger.debug(`could not attach to the registered provider: ${String(err)}`);
  }
  return false;
}

function ensureContextManager(): void {
  // By behaviour again (minified bundles rename NoopContextManager): does a value survive `with`?
  const key = createContextKey('obs.probe');
  const works = context.with(context.active().setValue(key, true), () => context.active().getValue(key) === true);
  if (!works) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  }
}

/**
 * Which tracer provider obs spans go through, decided once at `initObs`: obs's own, registered
 * globally (`registered`); the app's, with obs's processor added (`attached`); or a private one
 * beside an app provider that takes no processors (`isolated`). Also makes sure an async context
 * manager runs, whoever registered the provider.
 */
import { readEnv } from '../config/env.js';
import { context, createContextKey, propagation, ProxyTracerProvider, trace, type TracerProvider } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ObsSpanProcessor } from '../export/span-processor.js';
import { bridgeLlmTracers } from '../tracing/llm-tracer-bridge.js';
import { LightTracerProvider } from '../tracing/provider/light-provider.js';
import { setObsTracerProvider } from '../tracing/tracer.js';
import { logger } from '../util/logger.js';
import { SDK_VERSION } from '../util/version.js';
import type { ObsInitOptions, ObsTracingMode } from './init-options.js';

/** How obs spans were wired into the process, and how to undo it at shutdown. */
export interface TracingWiring {
  mode: ObsTracingMode;
  /** The provider obs created (shut down with the handle), if any. */
  provider?: OwnProvider;
  /** Undoes what the wiring registered, so a later `initObs` starts clean. */
  unwire(): void;
}

/**
 * Wires `processor` into the process. `reused`: the registered provider already has this
 * processor (the user built it with `ObsSpanProcessor`), so obs only adds its private provider.
 */
export function wireTracing(processor: SpanProcessor, options: ObsInitOptions, reused: boolean): TracingWiring {
  const { mode, provider, bridge } = reused
    ? { mode: 'attached' as const, provider: privateProvider(processor, options), bridge: undefined }
    : wireProvider(processor, options);
  return {
    mode,
    provider,
    unwire() {
      if (mode !== 'registered') setObsTracerProvider(undefined);
      bridge?.();
      // Unregister the provider we registered, so a later initObs() starts clean instead of
      // "attaching" to this shut-down one (and ignoring its new options).
      if (mode === 'registered' && provider && registeredProvider() === provider) trace.disable();
    },
  };
}

function wireProvider(
  processor: SpanProcessor,
  options: ObsInitOptions,
): { mode: ObsTracingMode; provider?: OwnProvider; bridge?: () => void } {
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
  const bridge = bridgeLlmTracers(foreign, provider);
  logger.warn(
    'initObs: another OpenTelemetry tracer provider is registered and cannot take the obs span processor; ' +
      "obs spans use an isolated provider (spans of other tracers are not exported to obs, but LLM libraries' spans inside obs work are). " +
      'Add ObsSpanProcessor to your provider to trace everything.',
  );
  return { mode: 'isolated', provider, bridge };
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
      'service.name': options.serviceName ?? readEnv('OTEL_SERVICE_NAME') ?? 'obs-app',
      'telemetry.sdk.name': 'obs',
      'telemetry.sdk.version': SDK_VERSION,
    }),
    spanProcessors: [...(options.spanProcessors ?? []), processor],
  };
  // The light provider samples everything (parent-based); a configured sampler needs the SDK's.
  return readEnv('OTEL_TRACES_SAMPLER') ? new NodeTracerProvider(settings) : new LightTracerProvider(settings);
}

/** The globally registered SDK provider, unless it is the no-op one. */
export function registeredProvider(): TracerProvider | undefined {
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

export function findObsProcessor(provider: TracerProvider): ObsSpanProcessor | undefined {
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

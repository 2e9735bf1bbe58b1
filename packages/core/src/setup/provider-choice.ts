/**
 * Which tracer provider obs spans go through, decided at `initObs` and again when the app
 * registers a provider after obs: obs's own, registered globally until another takes its place
 * (`registered`); the app's, with obs's processor added (`attached`); or a private one beside an
 * app provider that takes no processors (`isolated`). Also makes sure an async context manager
 * runs, whoever registered the provider.
 */
import { trace, type TracerProvider } from '@opentelemetry/api';
import { readEnv } from '../config/env.js';
import { ObsSpanProcessor } from '../export/span-processor.js';
import { bridgeLlmTracers } from '../tracing/llm-tracer-bridge.js';
import { ObsContextManager } from '../tracing/provider/context-manager.js';
import { LightTracerProvider } from '../tracing/provider/light-provider.js';
import { w3cPropagator } from '../tracing/provider/propagators.js';
import { resourceFromAttributes } from '../tracing/provider/resource.js';
import { type LightSampler, samplerFromEnv } from '../tracing/provider/sampler.js';
import { YieldingTracerProvider } from '../tracing/provider/yielding-provider.js';
import type { SpanProcessor, SpanResource } from '../tracing/sdk-types.js';
import { isNoopProvider, setObsTracerProvider } from '../tracing/tracer.js';
import { logger } from '../util/logger.js';
import { SDK_VERSION } from '../util/version.js';
import { AppView } from './app-view-parents.js';
import type { ObsInitOptions, ObsTracingMode } from './init-options.js';
import { attachFix, contextManagerActive, describeProvider } from './provider-info.js';
import { registerYielding, unregisterYielding } from './yielding-registration.js';

/** How obs spans were wired into the process, and how to undo it at shutdown. */
export interface TracingWiring {
  /** The current mode: `registered` turns into `attached` or `isolated` when the app registers a provider after obs. */
  readonly mode: ObsTracingMode;
  /** The providers obs created (shut down with the handle). */
  readonly providers: readonly OwnProvider[];
  /** Undoes what the wiring registered, so a later `initObs` starts clean. */
  unwire(): void;
}

/**
 * Wires `processor` into the process. `reused`: the registered provider already has this
 * processor (the user built it with `ObsSpanProcessor`), so obs only adds its private provider.
 */
export function wireTracing(processor: ObsSpanProcessor, options: ObsInitOptions, reused: boolean): TracingWiring {
  const wiring = new Wiring(processor, options);
  const foreign = registeredProvider();
  if (reused && foreign) wiring.usePrivateProvider(foreign);
  else if (foreign) wiring.joinForeign(foreign, 'initObs: another OpenTelemetry tracer provider is registered');
  else wiring.registerOwn();
  return wiring;
}

class Wiring implements TracingWiring {
  mode: ObsTracingMode = 'registered';
  readonly providers: OwnProvider[] = [];
  /** obs's provider with the user's `spanProcessors`, once created. */
  private own?: OwnProvider;
  private removeBridge?: () => void;
  private removeAppView?: () => void;

  constructor(
    private readonly processor: ObsSpanProcessor,
    private readonly options: ObsInitOptions,
  ) {}

  /**
   * Nothing registered: obs's provider, context manager and propagator go into the global slots,
   * each giving way when the app registers its own; the app's provider then gets obs's processor.
   */
  registerOwn(): void {
    const own = this.ownProvider();
    // obs spans go straight to obs's provider; everyone else's through the yielding one.
    setObsTracerProvider(own);
    const yielding = new YieldingTracerProvider(own);
    registerYielding({ provider: yielding, contextManager: new ObsContextManager(), propagator: w3cPropagator() }, (app) => {
      // Tracers handed out so far (instrumentations, LLM libraries) start their next span on the app's.
      yielding.handOver(app);
      try {
        this.joinForeign(app, `initObs: ${describeProvider(app)} was registered after obs and took over the global tracer provider`, true);
      } catch (err) {
        logger.warn(`could not join the tracer provider registered after obs: ${String(err)}`);
      }
    });
  }

  /**
   * Another provider is registered: attach to it, or run beside it when it takes no processors.
   * `tookOver`: it replaced obs's after the start-up line named obs's, which is no longer true:
   * the line saying what happened instead is shown at the default level.
   */
  joinForeign(foreign: TracerProvider, why: string, tookOver = false): void {
    // A provider set with trace.setGlobalTracerProvider() alone has no async context: without
    // it observations would not nest and propagateAttributes would not reach child spans.
    ensureContextManager();
    if (findObsProcessor(foreign) || attachProcessor(foreign, this.processor)) {
      this.mode = 'attached';
      this.usePrivateProvider(foreign);
      (tookOver ? logger.notice : logger.info)(`${why}; obs attached its span processor to it`);
      return;
    }
    // The provider takes no processors: keep obs spans apart rather than dropping them.
    this.mode = 'isolated';
    const own = this.ownProvider();
    setObsTracerProvider(own);
    const view = new AppView();
    const removeRecorder = addFirst(own, view.recorder);
    // LLM libraries' spans inside obs work still join the obs tree; the app's other spans keep its tree.
    const removeBridge = bridgeLlmTracers(foreign, own, (ctx) => view.appContext(ctx));
    this.removeBridge = () => {
      removeBridge();
      removeRecorder();
    };
    logger.warn(
      `${why} and it cannot take the obs span processor: obs spans use an isolated provider, spans of other tracers are not exported to obs, ` +
        `and LLM libraries' spans inside obs work go to obs only. To keep every span on both sides, ${attachFix(foreign)}.`,
    );
  }

  /**
   * Attached to the app's provider: obs observations start on a provider of their own (same
   * context, so they nest as before) unless `shareObservations`, so prompts and outputs do not
   * reach the app's other exporters; the app's spans inside them keep the parents the app has.
   */
  usePrivateProvider(app: TracerProvider): void {
    if (this.mode === 'registered') this.mode = 'attached';
    if (this.options.shareObservations) return setObsTracerProvider(undefined);
    ensureContextManager();
    const view = new AppView();
    setObsTracerProvider(this.newProvider([view.recorder]));
    this.removeAppView = addFirst(app, view.pointer);
  }

  unwire(): void {
    setObsTracerProvider(undefined);
    this.removeBridge?.();
    this.removeAppView?.();
    unregisterYielding();
  }

  private lightSampler?: LightSampler;

  private ownProvider(): OwnProvider {
    return (this.own ??= this.newProvider(this.options.spanProcessors ?? []));
  }

  private newProvider(spanProcessors: SpanProcessor[]): OwnProvider {
    const settings = { resource: newResource(this.options), spanProcessors: [...spanProcessors, this.processor] };
    // The tests' seam: their SDK project builds obs's own provider as OpenTelemetry's NodeTracerProvider.
    const factory = (globalThis as { [OWN_PROVIDER_FACTORY]?: (s: typeof settings) => OwnProvider })[OWN_PROVIDER_FACTORY];
    // One sampler for every provider obs builds (a bad setting warns once), from initObs({ env })
    // bindings too (Workers), as every OBS_*/OTEL_* setting.
    this.lightSampler ??= samplerFromEnv({
      OTEL_TRACES_SAMPLER: readEnv('OTEL_TRACES_SAMPLER'),
      OTEL_TRACES_SAMPLER_ARG: readEnv('OTEL_TRACES_SAMPLER_ARG'),
    });
    const provider = factory ? factory(settings) : new LightTracerProvider({ ...settings, lightSampler: this.lightSampler });
    this.providers.push(provider);
    return provider;
  }
}

/** A tracer provider obs creates and shuts down. */
export type OwnProvider = TracerProvider & { forceFlush(): Promise<void>; shutdown(): Promise<void> };

const OWN_PROVIDER_FACTORY = Symbol.for('obs.test.ownProviderFactory');

function newResource(options: ObsInitOptions): SpanResource {
  return resourceFromAttributes({
    'service.name': options.serviceName ?? readEnv('OTEL_SERVICE_NAME') ?? 'obs-app',
    'telemetry.sdk.name': 'obs',
    'telemetry.sdk.version': SDK_VERSION,
  });
}

/**
 * Puts `processor` first on `provider` (before the app's own processors see a span start);
 * returns the function that takes it out. SDK 1.x providers only append.
 */
function addFirst(provider: TracerProvider, processor: SpanProcessor): () => void {
  const list = processorsOf(provider);
  if (list) list.unshift(processor);
  else if (!attachProcessor(provider, processor)) return () => {};
  return () => {
    const at = processorsOf(provider)?.indexOf(processor) ?? -1;
    if (at >= 0) processorsOf(provider)!.splice(at, 1);
  };
}

/** The globally registered provider, unless it is the no-op one or obs's own. */
export function registeredProvider(): TracerProvider | undefined {
  const global = trace.getTracerProvider() as TracerProvider & { getDelegate?: () => TracerProvider };
  const delegate = global.getDelegate ? global.getDelegate() : global;
  if (delegate instanceof YieldingTracerProvider) return delegate.handedOver ? delegate.current : undefined;
  return isNoopProvider(delegate) ? undefined : delegate;
}

function processorsOf(provider: TracerProvider): SpanProcessor[] | undefined {
  const list = (provider as { _activeSpanProcessor?: { _spanProcessors?: SpanProcessor[] } })._activeSpanProcessor?._spanProcessors;
  return Array.isArray(list) ? list : undefined;
}

export function findObsProcessor(provider: TracerProvider): ObsSpanProcessor | undefined {
  return processorsOf(provider)?.find((p): p is ObsSpanProcessor => p instanceof ObsSpanProcessor);
}

/** Adds our processor to a provider: the public API of SDK 1.x, else the processor list of SDK 2.x and 3.x. */
function attachProcessor(provider: TracerProvider, processor: SpanProcessor): boolean {
  const p = provider as TracerProvider & { addSpanProcessor?: (sp: SpanProcessor) => void };
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

/** Registers obs's context manager and propagator (yielding) when no working context manager is registered. */
function ensureContextManager(): void {
  // By behaviour again (minified bundles rename NoopContextManager): does a value survive `with`?
  if (!contextManagerActive()) registerYielding({ contextManager: new ObsContextManager(), propagator: w3cPropagator() });
}

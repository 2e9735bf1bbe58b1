/**
 * The tracer of every obs span, and what happens when nothing could record one: the first obs
 * span started while no tracer provider is registered at all starts obs itself (`initObs()` from
 * the environment, as the adapters and wrappers do at their first request or call), instead of
 * recording nothing without a word.
 */
import { ProxyTracerProvider, trace, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { SDK_TRACER_NAME, SDK_VERSION } from '../util/version.js';

const PROVIDER_SLOT = Symbol.for('obs.isolated_tracer_provider');
type Slot = { [PROVIDER_SLOT]?: TracerProvider };
// Defined up front, so reading it for every span finds an own property of the global object
// instead of missing it along the global's prototype chain.
try {
  if (!Object.hasOwn(globalThis, PROVIDER_SLOT)) (globalThis as Slot)[PROVIDER_SLOT] = undefined;
} catch {
  // A frozen global (a hardened realm): the lookup just stays a miss.
}

let cached: { provider: TracerProvider; tracer: Tracer } | undefined;

/** What starts obs when an obs span finds no tracer provider (set by the setup layer: `initObs()`), until it ran once. */
let starter: (() => void) | undefined;

/**
 * Sets what the first obs span runs when no tracer provider is registered (undefined: nothing,
 * once obs started or was started by hand).
 */
export function setObsStarter(start: (() => void) | undefined): void {
  starter = start;
}

/**
 * The tracer of every obs span. When `initObs` had to run an isolated provider (another
 * provider owns the global one and cannot take our processor), obs spans go there. Cached per
 * provider: this runs for every span, and the API's proxy would otherwise look it up each time.
 */
export function getObsTracer(): Tracer {
  let provider = obsProvider();
  if (cached?.provider !== provider) {
    if (starter && isNoopProvider(provider)) {
      const start = starter;
      starter = undefined;
      start();
      provider = obsProvider();
    }
    cached = { provider, tracer: provider.getTracer(SDK_TRACER_NAME, SDK_VERSION) };
  }
  return cached.tracer;
}

function obsProvider(): TracerProvider {
  return (globalThis as Slot)[PROVIDER_SLOT] ?? delegateOf(trace.getTracerProvider());
}

/**
 * Whether `provider` is the API's no-op one (nothing registered). Identity first: bundlers that
 * minify (Next.js server bundles) rename the API's `NoopTracerProvider`, but the no-op delegate
 * of an unregistered proxy is the same singleton.
 */
export function isNoopProvider(provider: TracerProvider): boolean {
  return provider === new ProxyTracerProvider().getDelegate() || provider.constructor?.name === 'NoopTracerProvider';
}

/** Routes obs spans to `provider` (isolated mode); `undefined` returns to the global provider. */
export function setObsTracerProvider(provider: TracerProvider | undefined): void {
  (globalThis as Slot)[PROVIDER_SLOT] = provider;
}

function delegateOf(provider: TracerProvider): TracerProvider {
  const proxy = provider as TracerProvider & { getDelegate?: () => TracerProvider };
  return proxy.getDelegate ? proxy.getDelegate() : provider;
}

/**
 * Exports every ended obs span now: the provider obs spans go to (`forceFlush` runs each of its
 * processors, `ObsSpanProcessor` included). Resolves at once when there is no SDK provider.
 */
export async function flushObsSpans(): Promise<void> {
  await (obsProvider() as TracerProvider & { forceFlush?: () => Promise<void> }).forceFlush?.();
}

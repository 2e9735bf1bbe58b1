import { trace, type Tracer, type TracerProvider } from '@opentelemetry/api';
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

/**
 * The tracer of every obs span. When `initObs` had to run an isolated provider (another
 * provider owns the global one and cannot take our processor), obs spans go there. Cached per
 * provider: this runs for every span, and the API's proxy would otherwise look it up each time.
 */
export function getObsTracer(): Tracer {
  const provider = (globalThis as Slot)[PROVIDER_SLOT] ?? delegateOf(trace.getTracerProvider());
  if (cached?.provider !== provider) cached = { provider, tracer: provider.getTracer(SDK_TRACER_NAME, SDK_VERSION) };
  return cached.tracer;
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
  const provider = ((globalThis as Slot)[PROVIDER_SLOT] ?? delegateOf(trace.getTracerProvider())) as TracerProvider & {
    forceFlush?: () => Promise<void>;
  };
  await provider.forceFlush?.();
}

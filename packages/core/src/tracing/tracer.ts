import { trace, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { SDK_TRACER_NAME, SDK_VERSION } from '../version.js';

const PROVIDER_SLOT = Symbol.for('obs.isolated_tracer_provider');
type Slot = { [PROVIDER_SLOT]?: TracerProvider };

/**
 * The tracer of every obs span. When `initObs` had to run an isolated provider (another
 * provider owns the global one and cannot take our processor), obs spans go there.
 */
export function getObsTracer(): Tracer {
  const isolated = (globalThis as Slot)[PROVIDER_SLOT];
  return (isolated ?? trace.getTracerProvider()).getTracer(SDK_TRACER_NAME, SDK_VERSION);
}

/** Routes obs spans to `provider` (isolated mode); `undefined` returns to the global provider. */
export function setObsTracerProvider(provider: TracerProvider | undefined): void {
  (globalThis as Slot)[PROVIDER_SLOT] = provider;
}

/**
 * obs's global registrations give way to the app's. The OpenTelemetry API takes one tracer
 * provider, one context manager and one propagator per process, and a second registration fails
 * without a word: an app tracer initialised after obs (`sdk.start()`, `provider.register()`,
 * `Sentry.init()`, `registerOTel()`) would trace nothing. So what obs registers, it registers
 * yielding: the API's registering functions are wrapped, and when the app registers its own, obs
 * takes its entry out first, lets the app's in, and hands tracing over to the app's provider.
 */
import * as otel from '@opentelemetry/api';
import type { ContextManager, TextMapPropagator, TracerProvider } from '@opentelemetry/api';

type Api = Pick<typeof otel, 'trace' | 'context' | 'propagation'>;
type Setter = (this: unknown, value: never) => boolean;

/** What obs holds in the API's global slots, and who takes over the tracer provider's. */
interface YieldingState {
  provider?: TracerProvider;
  contextManager?: ContextManager;
  propagator?: TextMapPropagator;
  /** Called when the app's provider replaced obs's (synchronously, inside the app's registration). */
  onProvider?: (provider: TracerProvider) => void;
}

// On the global object, so two copies of @obs/core (or two of the API) agree on what obs holds.
const STATE = Symbol.for('obs.yieldingRegistration');
const ORIGINALS = Symbol.for('obs.yieldingRegistration.originals');
const OTEL_GLOBAL = Symbol.for('opentelemetry.js.api.1');

function state(): YieldingState {
  const g = globalThis as { [STATE]?: YieldingState };
  return (g[STATE] ??= {});
}

/** The API's global registry: what is registered, whichever copy of the API registered it. */
function registered(): { trace?: { getDelegate?: () => unknown }; context?: unknown; propagation?: unknown } | undefined {
  return (globalThis as Record<symbol, never>)[OTEL_GLOBAL];
}

/** Which of the given entries obs could register (a slot already taken keeps its owner). */
export interface YieldingRegistration {
  provider: boolean;
  contextManager: boolean;
  propagator: boolean;
}

/**
 * Registers `entries` globally, each giving way to a later registration of the same kind;
 * `onProvider` is called when an app's tracer provider takes the place of `entries.provider`.
 */
export function registerYielding(
  entries: Omit<YieldingState, 'onProvider'>,
  onProvider?: (provider: TracerProvider) => void,
): YieldingRegistration {
  wrapApis();
  const s = state();
  const result: YieldingRegistration = { provider: false, contextManager: false, propagator: false };
  if (entries.provider) {
    s.provider = entries.provider;
    s.onProvider = onProvider;
    result.provider = original(otel.trace, 'setGlobalTracerProvider').call(otel.trace, entries.provider as never);
    if (!result.provider) s.provider = s.onProvider = undefined;
  }
  if (entries.contextManager) {
    s.contextManager = entries.contextManager;
    result.contextManager = original(otel.context, 'setGlobalContextManager').call(otel.context, entries.contextManager as never);
    if (!result.contextManager) s.contextManager = undefined;
  }
  if (entries.propagator) {
    s.propagator = entries.propagator;
    result.propagator = original(otel.propagation, 'setGlobalPropagator').call(otel.propagation, entries.propagator as never);
    if (!result.propagator) s.propagator = undefined;
  }
  return result;
}

/**
 * Takes obs's tracer provider out (shutdown), so a later `initObs` starts clean. The context
 * manager and propagator stay: code running after shutdown keeps its context, and they still
 * give way to a later registration.
 */
export function unregisterYielding(): void {
  const s = state();
  if (s.provider && registered()?.trace?.getDelegate?.() === s.provider) otel.trace.disable();
  s.provider = s.onProvider = undefined;
}

/**
 * Wraps the registering functions of every copy of the API obs can reach: its own import and,
 * under Node.js, the CommonJS instance of the same package (`@opentelemetry/api` 1.10 ships an
 * ES module and a CommonJS build, which Node.js loads as two instances with the same global slots).
 */
function wrapApis(): void {
  for (const api of reachableApis()) {
    wrap(api.trace, 'setGlobalTracerProvider', (value, call) => {
      const s = state();
      const mine = s.provider;
      if (!mine || value === mine || registered()?.trace?.getDelegate?.() !== mine) return call();
      otel.trace.disable();
      const ok = call();
      if (ok) {
        const onProvider = s.onProvider;
        s.provider = s.onProvider = undefined;
        onProvider?.(value as TracerProvider);
      } else original(otel.trace, 'setGlobalTracerProvider').call(otel.trace, mine as never);
      return ok;
    });
    wrap(api.context, 'setGlobalContextManager', (value, call) => {
      const s = state();
      const mine = s.contextManager;
      if (!mine || value === mine || registered()?.context !== mine) return call();
      otel.context.disable();
      const ok = call();
      if (ok) s.contextManager = undefined;
      else original(otel.context, 'setGlobalContextManager').call(otel.context, mine.enable() as never);
      return ok;
    });
    wrap(api.propagation, 'setGlobalPropagator', (value, call) => {
      const s = state();
      const mine = s.propagator;
      if (!mine || value === mine || registered()?.propagation !== mine) return call();
      otel.propagation.disable();
      const ok = call();
      if (ok) s.propagator = undefined;
      else original(otel.propagation, 'setGlobalPropagator').call(otel.propagation, mine as never);
      return ok;
    });
  }
}

type Wrappable = object & { [ORIGINALS]?: Record<string, Setter> };

/** Replaces `target[name]` by `around`, once per target; the original stays reachable. */
function wrap(target: object, name: string, around: (value: unknown, call: () => boolean) => boolean): void {
  const t = target as Wrappable & Record<string, unknown>;
  if (t[ORIGINALS]?.[name]) return;
  const fn = t[name];
  if (typeof fn !== 'function') return;
  try {
    t[ORIGINALS] = { ...t[ORIGINALS], [name]: fn as Setter };
    t[name] = function (this: unknown, value: unknown): boolean {
      return around(value, () => (fn as Setter).call(this, value as never));
    };
  } catch {
    // A frozen API object: registrations there cannot give way (obs is then best initialised last).
  }
}

/** The unwrapped registering function of `target`. */
function original(target: object, name: string): Setter {
  const t = target as Wrappable & Record<string, Setter>;
  return t[ORIGINALS]?.[name] ?? t[name]!;
}

function reachableApis(): Api[] {
  const apis: Api[] = [otel];
  try {
    const nodeModule = (
      globalThis as { process?: { getBuiltinModule?: (id: string) => typeof import('node:module') | undefined } }
    ).process?.getBuiltinModule?.('node:module');
    const cjs = nodeModule?.createRequire(import.meta.url)('@opentelemetry/api') as Api | undefined;
    if (cjs?.trace && cjs.trace !== otel.trace) apis.push(cjs);
  } catch {
    // Not Node.js, or a bundle without the package on disk: its own import is the only one.
  }
  return apis;
}

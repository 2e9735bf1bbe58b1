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
import { nodeBuiltin } from '../util/runtime.js';

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

type Kind = 'provider' | 'contextManager' | 'propagator';
type Slot = {
  /** The API singleton of this kind in a copy of the API. */
  of(api: Api): { disable(): void };
  setter: string;
  /** What the global registry holds for this kind. */
  held(): unknown;
};

/** The three global slots, and how each is read, set and emptied. */
const SLOTS: Record<Kind, Slot> = {
  provider: { of: (api) => api.trace, setter: 'setGlobalTracerProvider', held: () => registered()?.trace?.getDelegate?.() },
  contextManager: { of: (api) => api.context, setter: 'setGlobalContextManager', held: () => registered()?.context },
  propagator: { of: (api) => api.propagation, setter: 'setGlobalPropagator', held: () => registered()?.propagation },
};
const KINDS = Object.keys(SLOTS) as Kind[];

/** Registers `value` in obs's own copy of the API, past the wrapper. */
function registerOwn(kind: Kind, value: unknown): boolean {
  const api = SLOTS[kind].of(otel);
  return original(api, SLOTS[kind].setter).call(api, value as never);
}

/** Which of the given entries obs could register (a slot already taken keeps its owner). */
export type YieldingRegistration = Record<Kind, boolean>;

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
  for (const kind of KINDS) {
    const value = entries[kind];
    if (!value) continue;
    const previous = s[kind];
    // Still holding the slot from an earlier initObs (the context manager and propagator outlive
    // shutdown): it stays obs's and keeps giving way, rather than being forgotten.
    if (previous && SLOTS[kind].held() === previous) {
      result[kind] = true;
      continue;
    }
    Object.assign(s, { [kind]: value }, kind === 'provider' ? { onProvider } : {});
    result[kind] = registerOwn(kind, value);
    if (!result[kind]) Object.assign(s, { [kind]: previous }, kind === 'provider' ? { onProvider: undefined } : {});
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
  if (s.provider && SLOTS.provider.held() === s.provider) otel.trace.disable();
  s.provider = s.onProvider = undefined;
}

/**
 * Wraps the registering functions of every copy of the API obs can reach: its own import and,
 * under Node.js, the CommonJS instance of the same package (`@opentelemetry/api` 1.10 ships an
 * ES module and a CommonJS build, which Node.js loads as two instances with the same global slots).
 * A registration of a kind obs holds takes obs's entry out first (`disable`), then goes in; if
 * it fails all the same, obs's entry goes back.
 */
function wrapApis(): void {
  for (const api of reachableApis()) {
    for (const kind of KINDS) {
      const slot = SLOTS[kind];
      wrap(slot.of(api), slot.setter, (value, call) => {
        const s = state();
        const mine = s[kind];
        if (!mine || value === mine || slot.held() !== mine) return call();
        slot.of(otel).disable();
        const ok = call();
        if (!ok) registerOwn(kind, kind === 'contextManager' ? (mine as ContextManager).enable() : mine);
        else if (kind !== 'provider') s[kind] = undefined;
        else {
          const onProvider = s.onProvider;
          s.provider = s.onProvider = undefined;
          onProvider?.(value as TracerProvider);
        }
        return ok;
      });
    }
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
    const nodeModule = nodeBuiltin<typeof import('node:module')>('node:module');
    const cjs = nodeModule?.createRequire(import.meta.url)('@opentelemetry/api') as Api | undefined;
    if (cjs?.trace && cjs.trace !== otel.trace) apis.push(cjs);
  } catch {
    // Not Node.js, or a bundle without the package on disk: its own import is the only one.
  }
  return apis;
}

/**
 * `observeClient(client, spec)`: a model SDK client, wrapped so that the methods its spec names
 * are traced. The client itself is never changed: the caller gets a `Proxy` of it (and of the
 * resources on the way to a traced method, `client.messages`, `client.chat.completions`) that
 * keeps every type, `instanceof` and property of the original; the original stays untraced.
 *
 * How calls are routed, so the SDK's own helpers are traced exactly once:
 * - a traced method runs on the original resource, in its observation's context;
 * - other methods of a resource run on its proxy, so a helper built on a traced method
 *   (`messages.stream()`, `chat.completions.parse()`) calls the traced one;
 * - a resource's reference back to the client (`this._client`) reads as the client's proxy, so
 *   a helper that reaches the traced method through the client is traced too;
 * - the client's own methods and getters run on the original client (its `#private` state
 *   works), except those the spec says return a client to observe alike (`withOptions`).
 */
import { context } from '@opentelemetry/api';
import { AdapterGuard } from '../http/adapter-guard.js';
import { suppressTracing } from '../tracing/suppress.js';
import type { ModelEndpoint } from './endpoint.js';
import { type CallSettings, ModelCall } from './model-call.js';

/** One call of a traced method, as its spec reads the arguments. */
export interface SelectedCall<R = Record<string, unknown>> {
  endpoint: ModelEndpoint<R>;
  /** What the endpoint's `request` reader gets. */
  request: R;
  /** Whether the result streams (the follower watches it instead of finishing at once). */
  streaming: boolean;
  /**
   * The abort signal the caller gave this call (Gemini's `config.abortSignal`, Bedrock's
   * `send(command, { abortSignal })`): an error or a stream's early end after it fired is an abort.
   */
  signal?: AbortSignal;
}

/** Follows a traced method's result to the call's end; returns what the caller gets. */
export type ResultFollower = (call: ModelCall, result: unknown, streaming: boolean) => unknown;

/** One traced method: which endpoint a call is, and how its result is followed. */
export interface TracedMethod {
  /**
   * Reads the call's arguments (and, when it needs it, the object the method is called on: a
   * chat's history); `undefined`: this call runs untraced.
   */
  // biome-ignore lint/suspicious/noExplicitAny: each method's endpoint reads its own request type
  select(args: readonly unknown[], self: unknown): SelectedCall<any> | undefined;
  follow: ResultFollower;
}

/** What to trace on a client. */
export interface ClientSpec {
  /** The package, for its log lines: `@obs/anthropic`. */
  adapter: string;
  /**
   * The object to wrap in place of the client (and of each derived client), e.g. a copy with
   * the SDK's own telemetry off, so each call is one observation; default the client itself.
   * The README of a package whose wrapper wraps a copy says so.
   */
  prepare?(client: object): object;
  /**
   * The settings of one client's calls from the wrapper's options (default: the options as they
   * are), e.g. metadata read from the client's base URL; also run for each derived client.
   */
  settings?(client: object, options: CallSettings): CallSettings;
  /**
   * Run each traced method with OpenTelemetry tracing suppressed below its observation, so that
   * another instrumentation of the same SDK (OpenInference's, OpenTelemetry's `aws-sdk`) records
   * no second span of the call: for an SDK whose calls carry no other spans worth keeping (its
   * HTTP request). The package's README says so.
   */
  quiet?: boolean;
  /** The traced methods by their path from the client: `messages.create`, `send`. */
  methods: Readonly<Record<string, TracedMethod>>;
  /**
   * Methods whose result is observed in turn, by path: `'self'` for a client of the same kind
   * (`withOptions`), or the spec of another object (`chats.create` → a chat's methods).
   */
  returns?: Readonly<Record<string, ClientSpec | 'self'>>;
}

/** A node of the spec's paths. */
interface PathNode {
  children: Map<string, PathNode>;
  method?: TracedMethod;
  returns?: ClientSpec | 'self';
}

/** One observed client: its original, its proxy, settings and caches. */
interface Observed {
  target: object;
  proxy: object;
  spec: ClientSpec;
  /** The wrapper's options, as given (derived clients start from them). */
  options: CallSettings;
  /** The settings of this client's calls. */
  settings: CallSettings;
  guard: AdapterGuard;
  /** Proxies of the resources, by original. */
  proxies: WeakMap<object, object>;
  /** Originals, by proxy (the client's and its resources'). */
  originals: WeakMap<object, object>;
  /** Functions the caller set through a proxy. */
  assigned: WeakSet<object>;
  /** Wrapped functions, by original function and node. */
  functions: WeakMap<object, Map<PathNode | 'bound', unknown>>;
}

const TREES = new WeakMap<ClientSpec, PathNode>();
const GUARDS = new Map<string, AdapterGuard>();
/** Every observed client's proxy, to its record: observing one again wraps its original. */
const OBSERVED = new WeakMap<object, Observed>();

type Fn = (this: unknown, ...args: unknown[]) => unknown;

/**
 * The client, observed: a proxy whose traced methods record one observation per call (see the
 * file's paragraph for how calls are routed). Observing an observed client again observes its
 * original with the new settings (one observation per call, never two).
 */
export function observeClient<T extends object>(client: T, spec: ClientSpec, options: CallSettings = {}): T {
  let guard = GUARDS.get(spec.adapter);
  if (!guard) GUARDS.set(spec.adapter, (guard = new AdapterGuard(spec.adapter)));
  const original = OBSERVED.get(client)?.target ?? client;
  const target = spec.prepare ? guard.run(() => spec.prepare!(original), original) : original;
  const settings = spec.settings ? guard.run(() => spec.settings!(target, options), options) : options;
  const observed = {
    target,
    spec,
    options,
    settings,
    guard,
    proxies: new WeakMap(),
    originals: new WeakMap(),
    assigned: new WeakSet(),
    functions: new WeakMap(),
  } as Omit<Observed, 'proxy'> as Observed;
  observed.proxy = proxyOf(target, treeOf(spec), observed);
  OBSERVED.set(observed.proxy, observed);
  return observed.proxy as T;
}

/**
 * The common traced method: its first argument is the request body the endpoint reads, and
 * `stream: true` in it makes the call stream. Calls without a body object run untraced.
 */
export function bodyMethod(endpoint: ModelEndpoint, follow: ResultFollower): TracedMethod {
  return {
    select(args) {
      const body = args[0];
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
      return { endpoint, request: body as Record<string, unknown>, streaming: (body as Record<string, unknown>)['stream'] === true };
    },
    follow,
  };
}

/** Whether `value` is a client (or resource) proxy made by {@link observeClient}. */
export function isObservedClient(value: unknown): boolean {
  return typeof value === 'object' && value !== null && OBSERVED.has(value);
}

function treeOf(spec: ClientSpec): PathNode {
  let tree = TREES.get(spec);
  if (tree) return tree;
  tree = { children: new Map() };
  const at = (path: string): PathNode => {
    let node = tree!;
    for (const key of path.split('.')) {
      let child = node.children.get(key);
      if (!child) node.children.set(key, (child = { children: new Map() }));
      node = child;
    }
    return node;
  };
  for (const [path, method] of Object.entries(spec.methods)) at(path).method = method;
  for (const [path, returns] of Object.entries(spec.returns ?? {})) at(path).returns = returns;
  TREES.set(spec, tree);
  return tree;
}

function proxyOf(target: object, node: PathNode, o: Observed): object {
  const existing = o.proxies.get(target);
  if (existing) return existing;
  const isClient = target === o.target;
  const proxy = new Proxy(target, {
    get(t, prop) {
      // The original as receiver: getters over `#private` state work.
      const value = Reflect.get(t, prop, t);
      if (typeof value !== 'function' && (typeof value !== 'object' || value === null)) return value;
      // A frozen property must read as itself (a Proxy invariant): it stays unobserved.
      if (!replaceable(t, prop)) return value;
      if (typeof prop === 'string') {
        const child = node.children.get(prop);
        if (child) {
          if (typeof value === 'function' && !o.assigned.has(value)) {
            if (child.method) return wrapped(value as Fn, child, o, () => traced(value as Fn, child.method!, o));
            if (child.returns) return wrapped(value as Fn, child, o, () => deriving(value as Fn, t, child.returns!, o));
          } else if (typeof value === 'object' && value !== null && child.children.size > 0) {
            return proxyOf(value, child, o);
          }
        }
      }
      if (value === o.target) return o.proxy;
      // The client's methods (from its classes, not functions it holds, like a custom `fetch`).
      if (isClient && typeof value === 'function' && prop !== 'constructor' && !Object.hasOwn(t, prop)) {
        return wrapped(value as Fn, 'bound', o, () => bound(value as Fn, t));
      }
      return value;
    },
    set(t, prop, value) {
      // A function the caller puts on the client is theirs: it runs as it is (when it calls
      // the traced method it got from the client, that call is the one traced).
      if (typeof value === 'function') o.assigned.add(value);
      return Reflect.set(t, prop, value, t);
    },
  });
  o.proxies.set(target, proxy);
  o.originals.set(proxy, target);
  return proxy;
}

function replaceable(t: object, prop: string | symbol): boolean {
  const d = Object.getOwnPropertyDescriptor(t, prop);
  return !d || d.configurable || d.writable === true;
}

/** One wrapper per original function and node, so `client.messages.create === client.messages.create`. */
function wrapped(fn: Fn, key: PathNode | 'bound', o: Observed, make: () => unknown): unknown {
  let byKey = o.functions.get(fn);
  if (!byKey) o.functions.set(fn, (byKey = new Map()));
  let w = byKey.get(key);
  if (!w) byKey.set(key, (w = make()));
  return w;
}

function bound(fn: Fn, target: object): Fn {
  return function (this: unknown, ...args: unknown[]) {
    return fn.apply(target, args);
  };
}

function deriving(fn: Fn, target: object, returns: ClientSpec | 'self', o: Observed): Fn {
  return function (this: unknown, ...args: unknown[]) {
    const self = o.originals.get(this as object) ?? (this === undefined ? target : this);
    const result = fn.apply(self, args);
    if (typeof result !== 'object' || result === null) return result;
    return o.guard.run(() => observeClient(result, returns === 'self' ? o.spec : returns, o.options), result);
  };
}

function traced(fn: Fn, method: TracedMethod, o: Observed): Fn {
  return function (this: unknown, ...args: unknown[]) {
    const self = o.originals.get(this as object) ?? this;
    const selected = o.guard.run(() => method.select(args, self));
    const call = selected && ModelCall.start(selected.endpoint, selected.request, o.settings, o.guard, selected.signal);
    if (!selected || !call) return fn.apply(self, args);
    let result: unknown;
    try {
      result = context.with(o.spec.quiet ? suppressTracing(call.context()) : call.context(), () => fn.apply(self, args));
    } catch (err) {
      call.fail(err);
      throw err;
    }
    try {
      return method.follow(call, result, selected.streaming);
    } catch (err) {
      // A follower bug: the caller gets the result as the SDK returned it; the call ends unread.
      o.guard.report(err);
      call.end({ statusMessage: `${o.spec.adapter} could not follow the result; output not recorded` });
      return result;
    }
  };
}

/**
 * What tests of instrumentation read back from the server, once for every suite: obs set up for a
 * test (`initTestObs`), a piece of work run under a root observation and what arrived of its
 * trace (`traced`), a trace waited for by id until its root and N spans are in (`traceOf`), the
 * one span of a name (`oneSpan`), an observation's attributes (`obsAttr`, `obsJson`), and a free
 * port. None imports the obs SDK: you pass its functions (`initObs`, `startActiveObservation`),
 * so the helpers test whichever copy of it your test imports.
 */
import { createServer } from 'node:net';
import type { AttrValue, DecodedSpan, ObsServer, WaitOptions } from '../types.js';

/** Where and with which keys to reach the server: the options `initObs` and `ObsClient` take. */
export interface ObsConnection {
  baseUrl: string;
  publicKey: string;
  secretKey: string;
}

/** The options `initTestObs` passes: the connection, a 50 ms flush interval, no exit hooks. */
export type TestObsOptions = ObsConnection & { flushInterval: number; flushOnExit: boolean };

/**
 * An `init` for `setupObsServer` that calls your `initObs` with the server's connection, a 50 ms
 * flush interval (spans arrive within the test) and no exit hooks (the test runner owns the
 * process), plus `options`: `setupObsServer({ init: initTestObs(initObs) })`.
 */
export function initTestObs<O, H>(initObs: (options: O) => H, options?: Partial<O>): (connection: ObsConnection) => H {
  return (connection) => initObs({ ...connection, flushInterval: 0.05, flushOnExit: false, ...options } as O);
}

/** What `traced` and `traceOf` need of a `setupObsServer` fixture: the server, and the handle to flush. */
export interface TraceSource {
  readonly server: ObsServer;
  readonly handle: { flush(): Promise<unknown> };
}

/** `startActiveObservation` of the obs SDK, as `traced` calls it. */
export type StartActive = <T>(name: string, fn: (observation: { traceId: string }) => T) => T;

/** One trace as it arrived: its root, every span of it, and readers by name. */
export interface ArrivedTrace {
  traceId: string;
  root: DecodedSpan;
  /** Every span of the trace, the root included, in arrival order. */
  spans: DecodedSpan[];
  /** The one span named `name` (throws, listing the trace, when there is none or several). */
  one(name: string, where?: (span: DecodedSpan) => boolean): DecodedSpan;
  /** Every span named `name`. */
  all(name: string): DecodedSpan[];
}

/** What `traced` returns: `fn`'s result or error, and what arrived of its trace. */
export interface TracedRun<T> extends ArrivedTrace {
  result: T | undefined;
  /** What `fn` threw or rejected with (the trace is read all the same). */
  error: unknown;
  /** The spans under the root, in start order. */
  children: DecodedSpan[];
}

/**
 * Runs `fn` inside a root observation `name` (your `startActiveObservation`), flushes, and reads
 * what arrived of that trace. A throw of `fn` is returned as `error`, not rethrown.
 *
 * @example
 * ```ts
 * const { children, error } = await traced(obs, startActiveObservation, () => client.chat('hi'));
 * ```
 */
export async function traced<T>(source: TraceSource, start: StartActive, fn: () => T | Promise<T>, name = 'test'): Promise<TracedRun<T>> {
  let traceId = '';
  let result: T | undefined;
  let error: unknown;
  await start(name, async (observation) => {
    traceId = observation.traceId;
    try {
      result = await fn();
    } catch (err) {
      error = err;
    }
  });
  await source.handle.flush();
  const trace = arrived(source.server.spansByTrace(traceId), traceId, (s) => s.name === name && !s.parentSpanId);
  const children = trace.spans.filter((s) => s !== trace.root).sort((a, b) => Number(a.startTimeUnixNano - b.startTimeUnixNano));
  return { ...trace, result, error, children };
}

/** Options of {@link traceOf}. */
export interface TraceOfOptions extends WaitOptions {
  /** Spans to wait for, the root included (default 1: the root alone). */
  spans?: number;
  /**
   * Then wait this many ms more and fail when more spans arrived than `spans`: for a test that
   * counts exactly (default 0: at least `spans`).
   */
  settleMs?: number;
  /** Fail when, once they arrived, the trace holds more than `spans` spans or more than one root (no wait, unlike `settleMs`). */
  exact?: boolean;
  /** Which span is the root (default: the one without a parent). */
  root?: (span: DecodedSpan) => boolean;
}

/**
 * Waits until the trace `traceId` (a response's `x-obs-trace-id`, say) has its root and `spans`
 * spans on the server, and returns it. Fails when `traceId` is not a trace id, and on timeout
 * with what the trace holds. Flush first if obs runs in this process.
 */
export async function traceOf(server: ObsServer, traceId: unknown, options: TraceOfOptions = {}): Promise<ArrivedTrace> {
  if (typeof traceId !== 'string' || !/^[0-9a-f]{32}$/.test(traceId)) throw new Error(`traceOf: not a trace id: ${String(traceId)}`);
  const { spans: count = 1, settleMs = 0, exact = false, root = isRoot, ...wait } = options;
  const spans = await server.waitFor(
    () => {
      const s = server.spansByTrace(traceId);
      return s.length >= count && s.some(root) ? s : undefined;
    },
    { timeoutMs: 10_000, description: `the root and ${count} spans of trace ${traceId}`, ...wait },
  );
  if (exact && (spans.length !== count || spans.filter(root).length !== 1)) {
    throw new Error(`traceOf: ${spans.length} spans of trace ${traceId} arrived, ${count} with one root expected: ${names(spans)}`);
  }
  if (settleMs > 0) {
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    const now = server.spansByTrace(traceId);
    if (now.length > count) throw new Error(`traceOf: ${now.length} spans of trace ${traceId} arrived, ${count} expected: ${names(now)}`);
  }
  return arrived(spans, traceId, root);
}

/** The one span of `spans` named `name` (and matching `where`); throws, listing them, when there is none or several. */
export function oneSpan(spans: readonly DecodedSpan[], name: string, where?: (span: DecodedSpan) => boolean): DecodedSpan {
  const found = spans.filter((s) => s.name === name && (!where || where(s)));
  if (found.length !== 1) throw new Error(`${found.length} spans named "${name}" among: ${names(spans)}`);
  return found[0]!;
}

/** The observation attribute `obs.observation.<key>` of a span (`type`, `input`, `level`, `metadata.x`, ...). */
export function obsAttr(span: DecodedSpan | undefined, key: string): AttrValue | undefined {
  return span?.attributes[`obs.observation.${key}`];
}

/** `obsAttr` parsed as JSON (input, output, usage details, ...); a value that is not text as it is. */
// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of whatever shape the test asserts on, typed as JSON.parse types it
export function obsJson(span: DecodedSpan | undefined, key: string): any {
  const v = obsAttr(span, key);
  return typeof v === 'string' ? JSON.parse(v) : v;
}

/** A TCP port free on 127.0.0.1 now (for a server a test starts in another process). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function isRoot(span: DecodedSpan): boolean {
  return !span.parentSpanId;
}

function names(spans: readonly DecodedSpan[]): string {
  return spans.map((s) => s.name).join(', ') || '(none)';
}

function arrived(spans: DecodedSpan[], traceId: string, isRootSpan: (span: DecodedSpan) => boolean): ArrivedTrace {
  const root = spans.find(isRootSpan);
  if (!root) throw new Error(`no root span in trace ${traceId}: ${names(spans)}`);
  return {
    traceId,
    root,
    spans,
    one: (name, where) => oneSpan(spans, name, where),
    all: (name) => spans.filter((s) => s.name === name),
  };
}

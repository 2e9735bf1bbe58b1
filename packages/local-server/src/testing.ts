/**
 * `@obs/local-server/testing`: the one test fixture of the obs packages, for vitest, and the
 * helpers their tests share (for your tests of your own instrumentation too). `setupObsServer`
 * starts a local obs server before the tests of the file (or `describe` block) that calls it,
 * initialises obs against it through your `init` (`initTestObs(initObs)`), resets the server
 * before each test, and shuts obs and the server down after the tests; `traced`, `traceOf`,
 * `oneSpan`, `obsAttr` and `obsJson` read back what arrived; `setupWrapperTest` is the fixture of
 * a model SDK wrapper's tests (the server, a stand-in of the provider's API, `traced`), and
 * `readStream` and `obsEnding` drive a wrapped stream to an ending and read how it ended.
 *
 * @example
 * ```ts
 * import { initObs } from '@obs/core';
 * import { initTestObs, setupObsServer, traceOf } from '@obs/local-server/testing';
 *
 * const obs = setupObsServer({ init: initTestObs(initObs) });
 *
 * it('traces the request', async () => {
 *   const res = await request(app).get('/chat');
 *   await obs.handle.flush();
 *   const { root, spans } = await traceOf(obs.server, res.headers['x-obs-trace-id'], { spans: 2 });
 *   expect(root.name).toBe('GET /chat');
 * });
 * ```
 *
 * @packageDocumentation
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { startObsServer } from './server.js';
import { type ObsConnection, type StartActive, traced } from './test-controls/traces.js';
import type { DecodedSpan, ObsServer, ObsServerOptions } from './types.js';

export {
  type FoundMediaReference,
  longestBase64Run,
  mediaReferencesIn,
  noisePng,
  pngDataUri,
} from './test-controls/media-fixtures.js';
export { type StandInApi, type StandInCall, type StandInReply, startStandInApi } from './test-controls/stand-in-api.js';
export { type ObsEnding, obsEnding, type ReadStreamOptions, readStream, type StreamRead } from './test-controls/streams.js';
export {
  type ArrivedTrace,
  freePort,
  initTestObs,
  obsAttr,
  type ObsConnection,
  obsJson,
  oneSpan,
  type StartActive,
  type TestObsOptions,
  type TraceOfOptions,
  type TraceSource,
  type TracedRun,
  traced,
  traceOf,
} from './test-controls/traces.js';

/** What `init` may return: shut down (else flushed) after the tests. */
export interface ObsHandleLike {
  flush?(): Promise<unknown>;
  shutdown?(): Promise<unknown>;
}

/** Options of {@link setupObsServer}: the server's own options, plus what to do around it. */
export interface SetupObsServerOptions<H> extends ObsServerOptions {
  /** Initialises obs against the server (once, before the tests); what it returns is `fixture.handle`. */
  init?: (connection: ObsConnection, server: ObsServer) => H | Promise<H>;
  /** Also run before each test, after the server was reset (e.g. empty a captured-logs array). */
  beforeEach?: () => void;
  /** Reset the server (spans, scores, requests, faults) before each test; default `true`. */
  reset?: boolean;
}

/** The started server and obs handle; read them inside tests or hooks, once the fixture started. */
export interface ObsServerFixture<H> {
  readonly server: ObsServer;
  readonly handle: H;
  readonly connection: ObsConnection;
  /**
   * Starts the fixture now rather than in `beforeAll`, for module-level set-up:
   * `const { server } = await setupObsServer().ready;`. The hooks then reuse it.
   */
  readonly ready: Promise<ObsServerFixture<H>>;
}

/**
 * Registers the fixture's vitest hooks in the calling file or `describe` block and returns it.
 * The server is quiet (no trace printing) unless `quiet: false` is passed.
 */
export function setupObsServer<H = undefined>(options: SetupObsServerOptions<H> = {}): ObsServerFixture<H> {
  const { init, beforeEach: eachTest, reset = true, ...serverOptions } = options;
  let server: ObsServer | undefined;
  let handle: H | undefined;
  let connection: ObsConnection | undefined;
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined && server === undefined)
      throw new Error(`setupObsServer: ${what} is read before the fixture started (read it inside a test or hook)`);
    return value as T;
  };
  let starting: Promise<ObsServerFixture<H>> | undefined;
  const start = async (): Promise<ObsServerFixture<H>> => {
    const srv = await startObsServer({ quiet: true, ...serverOptions });
    connection = { baseUrl: srv.url, publicKey: srv.publicKey, secretKey: srv.secretKey };
    server = srv;
    if (init) handle = await init(connection, srv);
    return fixture;
  };
  beforeAll(async () => {
    await (starting ??= start());
  });
  beforeEach(() => {
    if (reset) server?.reset();
    eachTest?.();
  });
  afterAll(async () => {
    const h = handle as ObsHandleLike | undefined;
    try {
      if (typeof h?.shutdown === 'function') await h.shutdown();
      else if (typeof h?.flush === 'function') await h.flush();
    } finally {
      await server?.close();
    }
  });
  const fixture: ObsServerFixture<H> = {
    get ready() {
      starting ??= start();
      return starting;
    },
    get server() {
      return started(server, 'server');
    },
    get handle() {
      return started(handle, 'handle');
    },
    get connection() {
      return started(connection, 'connection');
    },
  };
  return fixture;
}

/** A stand-in API a wrapper test starts: the calls it was sent, and how to stop it. */
export interface StandInLike {
  readonly calls: unknown[];
  close(): Promise<unknown>;
}

/** Options of {@link setupWrapperTest}. */
export interface WrapperTestOptions<F extends StandInLike, H> {
  /** Initialises obs against the server, as in {@link setupObsServer}: `initTestObs(initObs)`. */
  init: (connection: ObsConnection, server: ObsServer) => H | Promise<H>;
  /** `startActiveObservation` of `@obs/core`: what `traced` runs a call under. */
  start: StartActive;
  /** Starts the stand-in of the provider's API (once for the file); its `calls` are emptied before each test. */
  standIn: () => Promise<F>;
  /** Text that must never reach an exported span: the API key or credentials the SDK is given. */
  secret: string;
}

/** A wrapper test's fixture: the obs server, the stand-in API, and `traced`. */
export interface WrapperTest<F, H> {
  readonly local: ObsServerFixture<H>;
  /** The stand-in API (read inside a test or hook). */
  readonly fake: F;
  /**
   * Runs `fn` under a root observation named `request` and returns its result and the spans below
   * the root, in start order, having checked that each hangs directly under the root and none holds
   * `secret`; rethrows what `fn` threw.
   */
  traced<T>(fn: () => Promise<T>): Promise<{ result: T; spans: DecodedSpan[] }>;
}

/**
 * The fixture of a model SDK wrapper's tests (`@obs/openai`, `@obs/anthropic`, yours): the local
 * obs server with obs initialised against it, a stand-in of the provider's API, and `traced`.
 */
export function setupWrapperTest<F extends StandInLike, H extends { flush(): Promise<unknown> }>(
  options: WrapperTestOptions<F, H>,
): WrapperTest<F, H> {
  const local = setupObsServer({ init: options.init });
  let fake: F | undefined;
  beforeAll(async () => {
    fake = await options.standIn();
  });
  beforeEach(() => {
    fake?.calls.splice(0);
  });
  afterAll(async () => {
    await fake?.close();
  });
  return {
    local,
    get fake(): F {
      if (fake === undefined) throw new Error('setupWrapperTest: the stand-in is read before it started (read it inside a test or hook)');
      return fake;
    },
    async traced<T>(fn: () => Promise<T>): Promise<{ result: T; spans: DecodedSpan[] }> {
      const run = await traced(local, options.start, fn, 'request');
      for (const s of run.children) expect(s.parentSpanId, `${s.name} hangs under the root`).toBe(run.root.spanId);
      expect(JSON.stringify(run.spans, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(options.secret);
      if (run.error) throw run.error;
      return { result: run.result as T, spans: run.children };
    },
  };
}

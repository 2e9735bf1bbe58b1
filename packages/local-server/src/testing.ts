/**
 * `@obs/local-server/testing`: the one test fixture of the obs packages, for vitest. It starts a
 * local obs server before the tests of the file (or `describe` block) that calls it, initialises
 * obs against it through your `init`, resets the server before each test, and shuts obs and the
 * server down after the tests.
 *
 * @example
 * ```ts
 * import { initObs } from '@obs/core';
 * import { setupObsServer } from '@obs/local-server/testing';
 *
 * const obs = setupObsServer({ init: (c) => initObs({ ...c, flushInterval: 0.05, flushOnExit: false }) });
 *
 * it('traces the request', async () => {
 *   await request(app).get('/chat');
 *   await obs.handle.flush();
 *   expect(obs.server.spans()).toHaveLength(2);
 * });
 * ```
 *
 * @packageDocumentation
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startObsServer } from './server.js';
import type { ObsServer, ObsServerOptions } from './types.js';

export {
  type FoundMediaReference,
  longestBase64Run,
  mediaReferencesIn,
  noisePng,
  pngDataUri,
} from './test-controls/media-fixtures.js';
export { type StandInApi, type StandInCall, type StandInReply, startStandInApi } from './test-controls/stand-in-api.js';

/** Where and with which keys to reach the server: the options `initObs` and `ObsClient` take. */
export interface ObsConnection {
  baseUrl: string;
  publicKey: string;
  secretKey: string;
}

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

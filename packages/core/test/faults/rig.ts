/**
 * The fault tests' rig: a real local obs server, obs's span pipeline on it (`installTracing`) and a
 * score client, torn down after each test. The teardown clears the server's faults first, so its
 * own flushes meet a healthy server instead of the fault the test is over with.
 */
import { startObsServer, type ObsServer } from '@obs/local-server';
import { afterEach } from 'vitest';
import type { ObsClientOptions } from '../../src/client/index.js';
import { ObsClient } from '../../src/index.js';
import { captureLogs, type LogLine, restoreLogger, type ServerKeys } from '../support/server.js';
import { installTracing, type Tracing } from '../tracing/harness.js';

/** What a test drives; a test may replace `tracing` (the teardown closes the one it finds). */
export interface Rig {
  server: ObsServer;
  tracing: Tracing;
  client: ObsClient;
  /** obs's log lines from the set-up on. */
  logs: LogLine[];
}

/**
 * Registers the teardown (the client's shutdown bounded by `teardownMs` when given) and returns
 * the set-up: a server with `keys`, tracing and a client with the options given on top of the keys.
 */
export function faultRig(keys: ServerKeys, teardownMs?: number) {
  let rig: Partial<Rig> = {};
  afterEach(async () => {
    rig.server?.clearFaults();
    await rig.tracing?.close();
    await rig.client?.shutdown(teardownMs === undefined ? undefined : { timeoutMs: teardownMs });
    await rig.server?.close();
    restoreLogger();
    rig = {};
  });
  return async function setUp(
    tracing: Parameters<typeof installTracing>[1] = {},
    client: ObsClientOptions = {},
    serverOptions: { maxBodyBytes?: number } = {},
  ): Promise<Rig> {
    const server = await startObsServer({ quiet: true, ...keys, ...serverOptions });
    rig = { server, logs: captureLogs() };
    rig.tracing = installTracing(server, tracing);
    rig.client = new ObsClient({ ...keys, baseUrl: server.url, ...client });
    return rig as Rig;
  };
}

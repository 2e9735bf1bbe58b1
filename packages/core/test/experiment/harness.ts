/**
 * Set-up of the experiment tests: a real local obs server, a registered provider with a real
 * `ObsSpanProcessor`, and an `ObsClient` on the same server (scores, datasets, URLs).
 */
import type { DecodedSpan, ObsServer } from '@obs/local-server';
import { setupObsServer } from '@obs/local-server/testing';
import { afterEach } from 'vitest';
import { ObsClient } from '../../src/client/client.js';
import { captureLogs, type LogLine, restoreLogger, TRACING_KEYS, tracingInit } from '../tracing/harness.js';

export type { DecodedSpan, LogLine, ObsServer };

export interface ExperimentFixture {
  server: ObsServer;
  client: ObsClient;
  /** What the SDK logged during the current test. */
  logs: LogLine[];
}

/** `setupObsServer` with a provider, plus a client on the same server; logs captured per test, the server reset before each. */
export async function experimentForFile(): Promise<ExperimentFixture> {
  const { server } = await setupObsServer({ ...TRACING_KEYS, init: tracingInit() }).ready;
  const client = new ObsClient({
    baseUrl: server.url,
    publicKey: server.publicKey,
    secretKey: server.secretKey,
    backoff: { initialDelayMs: 5, maxDelayMs: 20 },
  });
  const fixture: ExperimentFixture = { server, client, logs: captureLogs() };
  // Long runs print progress to stderr by default: keep the test output clean.
  client.experiment.progressStream = { write: () => true, isTTY: false };
  afterEach(() => {
    fixture.logs.length = 0;
  });
  return fixture;
}

export { restoreLogger };

/** The `experiment-item-run` roots the server received. */
export function roots(server: ObsServer): DecodedSpan[] {
  return server.spansByName('experiment-item-run');
}

/** Requests to the endpoint the runner must never call. */
export function datasetRunItemCalls(server: ObsServer): number {
  return server.requests.filter((r) => r.path.includes('dataset-run-items')).length;
}

/** Log lines of one level, without the `[obs] ` prefix. */
export function lines(logs: LogLine[], level: LogLine['level']): string[] {
  return logs.filter((l) => l.level === level).map((l) => l.message.replace(/^\[obs\] /, ''));
}

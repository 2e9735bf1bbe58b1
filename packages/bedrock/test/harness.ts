/**
 * What the @obs/bedrock tests share: the local obs server with obs initialised against it, the
 * stand-in Bedrock Runtime, both ends of the peer range (`@aws-sdk/client-bedrock-runtime` 3.x
 * current, on HTTP/2, and 3.588, the first with Converse, on HTTP/1.1), and `traced(fn)`, which
 * runs `fn` under a root observation and returns what arrived on the server below that root
 * (every span checked to hang under it, and none holding the credentials).
 */
import * as current from '@aws-sdk/client-bedrock-runtime';
import { initObs, startActiveObservation } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { initTestObs, setupObsServer, traced as tracedRun } from '@obs/local-server/testing';
import * as floor from 'bedrock-runtime-3-588';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { type FakeBedrock, startFakeBedrock } from './fake-bedrock.js';

export const CREDENTIALS = { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret-DO-NOT-EXPORT-9a2c' };

/** Both ends of the peer range, with the HTTP version each speaks by default. */
export const SDKS = [
  ['client-bedrock-runtime 3.x', current, '2.0'],
  ['client-bedrock-runtime 3.588', floor as unknown as typeof current, '1.1'],
] as const;

export function setup() {
  const local = setupObsServer({ init: initTestObs(initObs) });
  let fake: FakeBedrock | undefined;
  beforeAll(async () => {
    fake = await startFakeBedrock();
  });
  beforeEach(() => {
    fake?.calls.splice(0);
  });
  afterAll(async () => {
    await fake?.close();
  });

  async function traced<T>(fn: () => Promise<T>): Promise<{ result: T; spans: DecodedSpan[] }> {
    const run = await tracedRun(local, startActiveObservation, fn, 'request');
    const spans = run.children;
    for (const s of spans) expect(s.parentSpanId, `${s.name} hangs under the root`).toBe(run.root.spanId);
    // The credentials sign the requests to the stand-in only, never an exported span.
    expect(JSON.stringify(run.spans, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain('DO-NOT-EXPORT');
    if (run.error) throw run.error;
    return { result: run.result as T, spans };
  }

  return {
    local,
    traced,
    get fake(): FakeBedrock {
      return fake!;
    },
  };
}

/** A client of `sdk` against the stand-in; destroy it after use (HTTP/2 sessions stay open). */
export function clientOf<T extends typeof current>(sdk: T, url: string): current.BedrockRuntimeClient {
  return new sdk.BedrockRuntimeClient({ region: 'us-east-1', endpoint: url, credentials: CREDENTIALS, maxAttempts: 1 });
}

export const attr = (s: DecodedSpan, key: string) => s.attributes[`obs.observation.${key}`];
export const json = (s: DecodedSpan, key: string) => {
  const v = attr(s, key);
  return typeof v === 'string' ? JSON.parse(v) : v;
};

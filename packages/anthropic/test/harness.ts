/**
 * What the @obs/anthropic tests share: the local obs server with obs initialised against it, the
 * stand-in Anthropic API, the two SDK majors (1.x and the 0.x floor of the peer range), and
 * `traced(fn)`, which runs `fn` under a root observation and returns what arrived on the server
 * below that root (every span checked to hang under it, and none holding the API key).
 */
import Anthropic1 from '@anthropic-ai/sdk';
import { initObs, startActiveObservation } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { initTestObs, setupObsServer, traced as tracedRun } from '@obs/local-server/testing';
import Anthropic0 from 'anthropic-sdk-0';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { type FakeAnthropic, startFakeAnthropic } from './fake-anthropic.js';

export const API_KEY = 'sk-ant-test-DO-NOT-EXPORT-7c1e';

/** Both ends of the peer range. */
export const SDKS = [
  ['@anthropic-ai/sdk 1.x', Anthropic1],
  ['@anthropic-ai/sdk 0.50', Anthropic0 as unknown as typeof Anthropic1],
] as const;

export function setup() {
  const local = setupObsServer({ init: initTestObs(initObs) });
  let fake: FakeAnthropic | undefined;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
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
    // The API key goes to the stand-in only, never into an exported span.
    expect(JSON.stringify(run.spans, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain('DO-NOT-EXPORT');
    if (run.error) throw run.error;
    return { result: run.result as T, spans };
  }

  return {
    local,
    traced,
    get fake(): FakeAnthropic {
      return fake!;
    },
  };
}

export const attr = (s: DecodedSpan, key: string) => s.attributes[`obs.observation.${key}`];
export const json = (s: DecodedSpan, key: string) => {
  const v = attr(s, key);
  return typeof v === 'string' ? JSON.parse(v) : v;
};

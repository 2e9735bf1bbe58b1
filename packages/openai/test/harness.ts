/**
 * What the @obs/openai tests share: the local obs server with obs initialised against it, a
 * fake OpenAI endpoint, and `traced(fn)`, which runs `fn` under a root observation and returns
 * what arrived on the server below that root (every span checked to hang under it).
 */
import { initObs, startActiveObservation } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { initTestObs, setupObsServer, traced as tracedRun } from '@obs/local-server/testing';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from './fake-openai.js';

export const API_KEY = 'sk-test-DO-NOT-EXPORT-4f2a9c';

export function setup() {
  const local = setupObsServer({ init: initTestObs(initObs) });
  let fake: FakeOpenAI | undefined;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
  });
  beforeEach(() => {
    fake?.calls.splice(0);
  });
  afterAll(async () => {
    await fake?.close();
  });

  async function traced<T>(fn: () => Promise<T>): Promise<{ result: T; spans: DecodedSpan[] }> {
    const run = await tracedRun(local, startActiveObservation, fn, 'request');
    const spans = run.spans.filter((s) => s !== run.root);
    for (const s of spans) expect(s.parentSpanId, `${s.name} hangs under the root`).toBe(run.root.spanId);
    // The API key goes to the OpenAI endpoint only, never into an exported span.
    expect(JSON.stringify(run.spans, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain('DO-NOT-EXPORT');
    if (run.error) throw run.error;
    return { result: run.result as T, spans };
  }

  return {
    local,
    traced,
    get fake(): FakeOpenAI {
      return fake!;
    },
  };
}

export const attr = (s: DecodedSpan, key: string) => s.attributes[`obs.observation.${key}`];
export const json = (s: DecodedSpan, key: string) => {
  const v = attr(s, key);
  return typeof v === 'string' ? JSON.parse(v) : v;
};

/**
 * What the @obs/openai tests share: the local obs server with obs initialised against it, a
 * fake OpenAI endpoint, and `traced(fn)`, which runs `fn` under a root observation and returns
 * what arrived on the server below that root (every span checked to hang under it).
 */
import { initObs, startActiveObservation } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from './fake-openai.js';

export const API_KEY = 'sk-test-DO-NOT-EXPORT-4f2a9c';

export function setup() {
  const local = setupObsServer({ init: (c) => initObs({ ...c, flushInterval: 0.05, flushOnExit: false }) });
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
    let traceId = '';
    let result!: T;
    let error: unknown;
    await startActiveObservation('request', async (obs) => {
      traceId = obs.traceId;
      try {
        result = await fn();
      } catch (err) {
        error = err;
      }
    });
    await local.handle.flush();
    const all = local.server.spansByTrace(traceId);
    const root = all.find((s) => s.name === 'request')!;
    const spans = all.filter((s) => s !== root);
    for (const s of spans) expect(s.parentSpanId, `${s.name} hangs under the root`).toBe(root.spanId);
    // The API key goes to the OpenAI endpoint only, never into an exported span.
    expect(JSON.stringify(all, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain('DO-NOT-EXPORT');
    if (error) throw error;
    return { result, spans };
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

/**
 * What the @obs/google-genai tests share: the local obs server with obs initialised against it,
 * the stand-in Gemini API, the two ends of the peer range (`@google/genai` 3.x and 1.0), and
 * `traced(fn)`, which runs `fn` under a root observation and returns what arrived on the server
 * below that root (every span checked to hang under it, and none holding the API key).
 */
import { GoogleGenAI as GoogleGenAI3 } from '@google/genai';
import { initObs, startActiveObservation } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer } from '@obs/local-server/testing';
import { GoogleGenAI as GoogleGenAI1 } from 'google-genai-1';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { type FakeGemini, startFakeGemini } from './fake-gemini.js';

export const API_KEY = 'AIza-test-DO-NOT-EXPORT-51f0';

/** Both ends of the peer range. */
export const SDKS = [
  ['@google/genai 3.x', GoogleGenAI3],
  ['@google/genai 1.0', GoogleGenAI1 as unknown as typeof GoogleGenAI3],
] as const;

export function setup() {
  const local = setupObsServer({ init: (c) => initObs({ ...c, flushInterval: 0.05, flushOnExit: false }) });
  let fake: FakeGemini | undefined;
  beforeAll(async () => {
    fake = await startFakeGemini();
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
    const spans = all.filter((s) => s !== root).sort((a, b) => Number(a.startTimeUnixNano - b.startTimeUnixNano));
    for (const s of spans) expect(s.parentSpanId, `${s.name} hangs under the root`).toBe(root.spanId);
    // The API key goes to the stand-in only, never into an exported span.
    expect(JSON.stringify(all, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain('DO-NOT-EXPORT');
    if (error) throw error;
    return { result, spans };
  }

  return {
    local,
    traced,
    get fake(): FakeGemini {
      return fake!;
    },
  };
}

export const attr = (s: DecodedSpan, key: string) => s.attributes[`obs.observation.${key}`];
export const json = (s: DecodedSpan, key: string) => {
  const v = attr(s, key);
  return typeof v === 'string' ? JSON.parse(v) : v;
};

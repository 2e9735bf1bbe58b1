/**
 * What the @obs/google-genai tests share: the local obs server with obs initialised against it,
 * the stand-in Gemini API, the two ends of the peer range (`@google/genai` 3.x and 1.0), and
 * `traced(fn)`, which runs `fn` under a root observation and returns what arrived on the server
 * below that root (every span checked to hang under it, and none holding the API key).
 */
import { GoogleGenAI as GoogleGenAI3 } from '@google/genai';
import { initObs, startActiveObservation } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { initTestObs, setupObsServer, traced as tracedRun } from '@obs/local-server/testing';
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
  const local = setupObsServer({ init: initTestObs(initObs) });
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

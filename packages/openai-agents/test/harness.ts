/**
 * What the @obs/openai-agents tests share: the local obs server with obs initialised against it,
 * the stand-in OpenAI API as the Agents SDK's default client, the SDK's tracing turned on (vitest
 * sets NODE_ENV=test, under which the SDK turns it off) with obs's processor added, and readers
 * for what arrived.
 */
import { initObs } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer, initTestObs } from '@obs/local-server/testing';
import { setDefaultOpenAIClient, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { observeOpenAIAgents } from '../src/index.js';
import { type StandIn, startStandIn } from './stand-in-openai.js';

/** `observe: false` leaves adding obs's processor to the test. */
export function setup(options: { observe?: boolean } = {}) {
  const local = setupObsServer({ init: initTestObs(initObs) });
  let standIn: StandIn | undefined;
  beforeAll(async () => {
    standIn = await startStandIn();
    setDefaultOpenAIClient(new OpenAI({ apiKey: 'sk-test-DO-NOT-EXPORT', baseURL: standIn.baseURL, maxRetries: 0 }));
    setTracingDisabled(false);
    if (options.observe !== false) observeOpenAIAgents();
  });
  beforeEach(() => {
    standIn?.requests.splice(0);
  });
  afterAll(async () => {
    await standIn?.close();
  });

  /** Lets the SDK's processor calls (chained on promises) finish, then sends what obs holds. */
  async function settle(): Promise<void> {
    await new Promise((r) => setImmediate(r));
    await local.handle.flush();
  }

  /** The spans of one trace, by name (each name expected once unless `all`). */
  function trace(traceId: string): { spans: DecodedSpan[]; one: (name: string) => DecodedSpan; all: (name: string) => DecodedSpan[] } {
    const spans = local.server.spansByTrace(traceId);
    const all = (name: string) => spans.filter((s) => s.name === name);
    const one = (name: string) => {
      const found = all(name);
      if (found.length !== 1) throw new Error(`${found.length} spans named ${name}: ${spans.map((s) => s.name).join(', ')}`);
      return found[0]!;
    };
    return { spans, one, all };
  }

  return {
    local,
    settle,
    trace,
    get standIn(): StandIn {
      return standIn!;
    },
  };
}

export const attr = (s: DecodedSpan, key: string) => s.attributes[`obs.observation.${key}`];
export const json = (s: DecodedSpan, key: string) => {
  const v = attr(s, key);
  return typeof v === 'string' ? JSON.parse(v) : v;
};

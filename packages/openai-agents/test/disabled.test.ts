/**
 * The SDK's own switch: under NODE_ENV=test (vitest sets it) the Agents SDK turns its tracing
 * off, so no processor hears of a run. `observeOpenAIAgents()` says so in one line and nothing
 * is recorded; `setTracingDisabled(false)` turns it on.
 */
import { initObs, setLogger, startActiveObservation } from '@obs/core';
import { setupObsServer, initTestObs } from '@obs/local-server/testing';
import { Agent, run, setDefaultOpenAIClient, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { observeOpenAIAgents } from '../src/index.js';
import { type StandIn, startStandIn } from './stand-in-openai.js';

const local = setupObsServer({ init: initTestObs(initObs) });
const warnings: string[] = [];
let standIn: StandIn;
beforeAll(async () => {
  standIn = await startStandIn();
  setDefaultOpenAIClient(new OpenAI({ apiKey: 'sk-test', baseURL: standIn.baseURL, maxRetries: 0 }));
  setLogger({ debug() {}, info() {}, warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) });
});
afterAll(() => standIn.close());

async function observedRun(): Promise<string> {
  let traceId = '';
  await startActiveObservation('request', async (obs) => {
    traceId = obs.traceId;
    await run(new Agent({ name: 'Echo', instructions: 'x' }), 'hello');
  });
  await new Promise((r) => setImmediate(r));
  await local.handle.flush();
  return traceId;
}

it('NODE_ENV=test: one warning that says how to turn it on, nothing recorded until then', async () => {
  expect(process.env.NODE_ENV).toBe('test');
  observeOpenAIAgents();
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(/tracing turned off \(NODE_ENV=test or OPENAI_AGENTS_DISABLE_TRACING\).*setTracingDisabled\(false\)/);
  const off = await observedRun();
  expect(standIn.requests).toHaveLength(1);
  expect(local.server.spansByTrace(off).map((s) => s.name)).toEqual(['request']);
  setTracingDisabled(false);
  const on = await observedRun();
  expect(
    local.server
      .spansByTrace(on)
      .map((s) => s.name)
      .sort(),
  ).toEqual(['Agent workflow', 'Echo', 'request', 'response']);
  expect(warnings).toHaveLength(1);
});

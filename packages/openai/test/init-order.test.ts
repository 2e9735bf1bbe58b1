/**
 * A client observed at import time, before the app's `initObs(options)` (a `lib/openai.ts` module
 * imported ahead of the app's set-up): its calls trace with the app's options, because obs starts
 * at the first call, not at `observeOpenAI`.
 */
import { initObs, startActiveObservation } from '@obs/core';
import { setupObsServer, initTestObs } from '@obs/local-server/testing';
import OpenAI from 'openai';
import { afterAll, expect, it } from 'vitest';
import { observeOpenAI } from '../src/index.js';
import { completion, startFakeOpenAI } from './fake-openai.js';
import { API_KEY } from './harness.js';

const fake = await startFakeOpenAI();
const openai = observeOpenAI(new OpenAI({ apiKey: API_KEY, baseURL: fake.baseURL, maxRetries: 0 }));
const local = setupObsServer({ init: initTestObs(initObs) });
afterAll(() => fake.close());

it("a client observed before initObs(options) traces its calls with the app's options", async () => {
  fake.reply('/chat/completions', { json: completion({ content: 'Sunny.' }) });
  let traceId = '';
  await startActiveObservation('request', async (obs) => {
    traceId = obs.traceId;
    await openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'Weather?' }] });
  });
  await local.handle.flush();
  const names = local.server.spansByTrace(traceId).map((s) => s.name);
  expect(names).toHaveLength(2);
  expect(names).toContain('request');
});

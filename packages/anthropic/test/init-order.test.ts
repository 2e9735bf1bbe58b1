/**
 * A client observed at import time, before the app's `initObs(options)` (a `lib/anthropic.ts`
 * module imported ahead of the app's set-up): its calls trace with the app's options, because
 * obs starts at the first call, not at `observeAnthropic`.
 */
import Anthropic from '@anthropic-ai/sdk';
import { initObs, startActiveObservation } from '@obs/core';
import { setupObsServer, initTestObs } from '@obs/local-server/testing';
import { afterAll, expect, it } from 'vitest';
import { observeAnthropic } from '../src/index.js';
import { message, startFakeAnthropic, text } from './fake-anthropic.js';
import { API_KEY } from './harness.js';

const fake = await startFakeAnthropic();
const anthropic = observeAnthropic(new Anthropic({ apiKey: API_KEY, baseURL: fake.baseURL, maxRetries: 0 }));
const local = setupObsServer({ init: initTestObs(initObs) });
afterAll(() => fake.close());

it("a client observed before initObs(options) traces its calls with the app's options", async () => {
  fake.reply('/v1/messages', { json: message([text('Hi.')]) });
  let traceId = '';
  await startActiveObservation('request', async (obs) => {
    traceId = obs.traceId;
    await anthropic.messages.create({ model: 'claude-test', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] });
  });
  await local.handle.flush();
  expect(
    local.server
      .spansByTrace(traceId)
      .map((s) => s.name)
      .sort(),
  ).toEqual(['anthropic.messages.create', 'request']);
});

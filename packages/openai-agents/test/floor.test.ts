/**
 * The peer range's floor, `@openai/agents` 0.3 (no `task` and `turn` spans yet): the same triage
 * -> writer run with a tool reads back as the same tree, `ObsTraceProcessor` added with that
 * version's own `addTraceProcessor`.
 */
import { startActiveObservation } from '@obs/core';
import { Agent, addTraceProcessor, run, setDefaultOpenAIClient, setTracingDisabled, tool } from 'agents-floor';
import OpenAI from 'openai';
import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { ObsTraceProcessor } from '../src/index.js';
import { attr, json, setup } from './harness.js';
import { USAGE_DETAILS } from './stand-in-openai.js';

const t = setup({ observe: false });
beforeAll(() => {
  setDefaultOpenAIClient(new OpenAI({ apiKey: 'sk-test', baseURL: t.standIn.baseURL, maxRetries: 0 }) as never);
  setTracingDisabled(false);
  addTraceProcessor(new ObsTraceProcessor());
});

it('@openai/agents 0.3: agents, one generation per model call, the handoff and the tool', async () => {
  const weather = tool({
    name: 'weather',
    description: 'The weather in a city',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => `sunny in ${city}`,
  });
  const writer = new Agent({ name: 'Writer', instructions: 'Write the answer.', tools: [weather] });
  const triage = new Agent({ name: 'Triage', instructions: 'Route the question.', handoffs: [writer] });
  t.standIn.script({ call: 'transfer_to_Writer', args: {} }, { call: 'weather', args: { city: 'Paris' } }, { text: 'Sunny.' });
  let traceId = '';
  await startActiveObservation('request', async (obs) => {
    traceId = obs.traceId;
    expect((await run(triage, 'Weather in Paris?')).finalOutput).toBe('Sunny.');
  });
  await t.settle();
  const { spans, one } = t.trace(traceId);
  const workflow = one('Agent workflow');
  expect(workflow.parentSpanId).toBe(one('request').spanId);
  const triageSpan = one('Triage');
  const writerSpan = one('Writer');
  for (const a of [triageSpan, writerSpan]) expect(a.parentSpanId).toBe(workflow.spanId);
  const generations = spans.filter((s) => attr(s, 'type') === 'generation');
  expect(generations).toHaveLength(3);
  for (const g of generations) expect(json(g, 'usage_details')).toEqual(USAGE_DETAILS);
  expect(generations.filter((g) => g.parentSpanId === writerSpan.spanId)).toHaveLength(2);
  expect(one('handoff Triage -> Writer').parentSpanId).toBe(triageSpan.spanId);
  expect(json(one('weather'), 'input')).toEqual({ city: 'Paris' });
  expect(attr(workflow, 'output')).toBe('Sunny.');
  expect(spans).toHaveLength(9);
});

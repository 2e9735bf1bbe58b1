/**
 * `ObsExporter` in a real Mastra (`@mastra/core` with `@mastra/observability`) against a stand-in
 * Chat Completions API (Mastra's model router, streamed): an agent that calls a tool, run inside
 * an active observation, read back field by field (one generation per model call, its usage in
 * obs's buckets); a workflow of two steps outside any observation; a tool that throws. The
 * `@mastra/core-floor` projects run it again on the peer range's floor (vitest.config.ts).
 */
import { Mastra } from '@mastra/core';
import { Agent } from '@mastra/core/agent';
import { SpanType } from '@mastra/core/observability';
import { createTool } from '@mastra/core/tools';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { Observability } from '@mastra/observability';
import { initObs, startActiveObservation } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer, initTestObs } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ObsExporter } from '../src/index.js';
import { type StandInChat, startStandInChat } from './stand-in-chat.js';

const local = setupObsServer({ init: initTestObs(initObs) });
let standIn: StandInChat;
let mastra: Mastra;
const exporter = new ObsExporter();

/** On the floor (1.16.0) a step has no inference span: its generation carries the model asked for. */
const floor = process.env['MASTRA_CORE_FLOOR'] === '1';

const attr = (s: DecodedSpan, key: string) => s.attributes[`obs.observation.${key}`];
const json = (s: DecodedSpan, key: string) => {
  const v = attr(s, key);
  return typeof v === 'string' ? JSON.parse(v) : v;
};

beforeAll(async () => {
  standIn = await startStandInChat();
  const weather = createTool({
    id: 'weather',
    description: 'The weather in a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => `sunny in ${city}`,
  });
  const broken = createTool({
    id: 'broken',
    description: 'Always fails',
    inputSchema: z.object({}),
    execute: async () => {
      throw new Error('the backend is down');
    },
  });
  const model = { id: 'openai/gpt-stand-in', url: standIn.baseURL, apiKey: 'sk-test-DO-NOT-EXPORT' } as const;
  const weatherAgent = new Agent({
    id: 'weather-agent',
    name: 'Weather Agent',
    instructions: 'Answer briefly.',
    model,
    tools: { weather, broken },
  });
  const double = createStep({
    id: 'double',
    inputSchema: z.object({ n: z.number() }),
    outputSchema: z.object({ n: z.number() }),
    execute: async ({ inputData }) => ({ n: inputData.n * 2 }),
  });
  const inc = createStep({
    id: 'increment',
    inputSchema: z.object({ n: z.number() }),
    outputSchema: z.object({ n: z.number() }),
    execute: async ({ inputData }) => ({ n: inputData.n + 1 }),
  });
  const math = createWorkflow({ id: 'math', inputSchema: z.object({ n: z.number() }), outputSchema: z.object({ n: z.number() }) })
    .then(double)
    .then(inc)
    .commit();
  mastra = new Mastra({
    agents: { weatherAgent },
    workflows: { math },
    logger: false,
    observability: new Observability({ configs: { obs: { serviceName: 'obs-test', exporters: [exporter] } } }),
  });
});
afterAll(() => standIn?.close());

/** Waits until Mastra's exporter pipeline has handed every span over, then flushes obs. */
async function settle(): Promise<void> {
  await mastra.observability.getDefaultInstance()?.flush?.();
  await local.handle.flush();
}

describe('ObsExporter', () => {
  it('an agent with a tool inside an active observation: agent, one generation per model call, the tool', async () => {
    standIn.script({ call: 'weather', args: { city: 'Paris' } }, { text: 'Sunny in Paris.' });
    let traceId = '';
    let requestId = '';
    await startActiveObservation('request', async (obs) => {
      traceId = obs.traceId;
      requestId = obs.id;
      const result = await mastra.getAgent('weatherAgent').generate('Weather in Paris?');
      expect(result.text).toBe('Sunny in Paris.');
    });
    await settle();
    const spans = local.server.spansByTrace(traceId);
    const one = (name: string) => {
      const found = spans.filter((s) => s.name === name);
      expect(found, name).toHaveLength(1);
      return found[0]!;
    };
    const agent = one("agent run: 'weather-agent'");
    expect(agent.parentSpanId).toBe(requestId);
    expect(attr(agent, 'type')).toBe('agent');
    expect(attr(agent, 'input')).toBe('Weather in Paris?');
    expect(attr(agent, 'output')).toBe('Sunny in Paris.');
    const llm = one("llm: 'gpt-stand-in'");
    expect(attr(llm, 'type')).toBe('span');
    expect(llm.parentSpanId).toBe(agent.spanId);
    // The generation around the steps ends with the response's model (on every version).
    expect(attr(llm, 'model.name')).toBe('gpt-stand-in-2026');
    const generations = spans.filter((s) => attr(s, 'type') === 'generation');
    expect(generations).toHaveLength(2);
    expect(standIn.requests).toHaveLength(2);
    // The floor projects run 1.16.0 (no inference span before 1.33; observability's imports of
    // core reach it too, else the steps below would carry the response's model).
    expect(Object.values(SpanType).includes('model_inference' as SpanType)).toBe(!floor);
    for (const g of generations) {
      expect(g.parentSpanId).toBe(llm.spanId);
      // The response's model where the step's inference span reports it, else the one asked for.
      expect(attr(g, 'model.name')).toBe(floor ? 'gpt-stand-in' : 'gpt-stand-in-2026');
      expect(json(g, 'usage_details')).toEqual({ input: 20, input_cache_read: 10, output: 12, total: 42 });
    }
    const [first, second] = generations.sort((a, b) => Number(a.startTimeUnixNano - b.startTimeUnixNano));
    expect(json(first!, 'input')).toEqual([
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: 'Weather in Paris?' },
    ]);
    expect(json(first!, 'output')).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'call_1', name: 'weather', args: { city: 'Paris' } }],
    });
    expect(json(second!, 'output')).toEqual({ role: 'assistant', content: 'Sunny in Paris.' });
    const tool = one("tool: 'weather'");
    expect(attr(tool, 'type')).toBe('tool');
    expect(json(tool, 'input')).toEqual({ city: 'Paris' });
    expect(attr(tool, 'output')).toBe('sunny in Paris');
    expect(tool.parentSpanId).toBe(first!.spanId);
    // No streaming chunk reaches obs; no observation is left open.
    expect(spans.filter((s) => s.name.startsWith('chunk'))).toHaveLength(0);
    expect(exporter.openSpans).toBe(0);
    expect(JSON.stringify(spans, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain('DO-NOT-EXPORT');
  });

  it('a tool that throws: the tool is level ERROR with its message', async () => {
    standIn.script({ call: 'broken', args: {} }, { text: 'The backend is down.' });
    let traceId = '';
    await startActiveObservation('request', async (obs) => {
      traceId = obs.traceId;
      await mastra.getAgent('weatherAgent').generate('Try the broken tool');
    });
    await settle();
    const tool = local.server.spansByTrace(traceId).find((s) => s.name === "tool: 'broken'");
    expect(tool).toBeDefined();
    expect(attr(tool!, 'level')).toBe('ERROR');
    expect(String(attr(tool!, 'status_message'))).toMatch(/the backend is down/);
  });

  it('a workflow outside any observation: its own trace, a chain with its steps', async () => {
    const before = new Set(local.server.spans().map((s) => s.spanId));
    const run = await mastra.getWorkflow('math').createRun();
    const result = await run.start({ inputData: { n: 3 } });
    expect(result.status).toBe('success');
    await settle();
    const fresh = local.server.spans().filter((s) => !before.has(s.spanId));
    const root = fresh.find((s) => attr(s, 'type') === 'chain');
    expect(root).toBeDefined();
    expect(root!.parentSpanId).toBeUndefined();
    expect(json(root!, 'input')).toEqual({ n: 3 });
    expect(json(root!, 'output')).toEqual({ n: 7 });
    const steps = fresh.filter((s) => s.traceId === root!.traceId && s.name.includes('step'));
    expect(steps.map((s) => s.name).sort()).toEqual(["workflow step: 'double'", "workflow step: 'increment'"]);
    for (const s of steps) expect(s.parentSpanId).toBe(root!.spanId);
  });
});

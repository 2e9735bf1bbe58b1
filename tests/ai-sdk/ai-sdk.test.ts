/**
 * Every Vercel AI SDK call reads right in obs, on the wire, for AI SDK 5, 6 and 7 (each of 7's
 * OpenTelemetry integrations), with the real `ai` packages and their mock models: a model call is
 * one generation with every input message (system prompt first), its final message normalised
 * to `{ role, content, tool_calls: [{ id, name, args }] }`, usage split into disjoint buckets as
 * the call reported it, `completion_start_time` on streams, ERROR on a throwing model, WARNING on
 * an aborted stream; the call around it is an agent with the final answer; tools are tools,
 * steps chains, and each embedding model call exactly one embedding with its usage.
 */
import { initObs, startActiveObservation } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { expectedUsage, mockEmbeddingModel, mockModel, telemetry, USAGE, VARIANTS, type Variant } from './variants.js';

const local = setupObsServer({ init: (c) => initObs({ ...c, flushInterval: 0.05, flushOnExit: false }) });

const SYSTEM = 'You are terse.';
const QUESTION = 'Weather in Paris?';

/** Runs `fn` under a root observation; returns its result and the trace's spans below the root. */
async function traced<T>(fn: () => Promise<T>): Promise<{ result: T; spans: DecodedSpan[]; root: DecodedSpan }> {
  let traceId = '';
  const result = await startActiveObservation('request', (obs) => {
    traceId = obs.traceId;
    return fn();
  });
  await local.handle.flush();
  const all = local.server.spansByTrace(traceId);
  const root = all.find((s) => s.name === 'request')!;
  const spans = all.filter((s) => s !== root);
  // Every span of the call is in the request's tree.
  const byId = new Map(all.map((s) => [s.spanId, s]));
  for (const s of spans) {
    let p: DecodedSpan | undefined = s;
    while (p && p !== root) p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined;
    expect(p, `${s.name} reaches the root`).toBe(root);
  }
  return { result, spans, root };
}

const type = (s: DecodedSpan) => s.attributes['obs.observation.type'];
const ofType = (spans: DecodedSpan[], t: string) => spans.filter((s) => type(s) === t);
const json = (s: DecodedSpan, key: string) => {
  const v = s.attributes[`obs.observation.${key}`];
  return typeof v === 'string' ? JSON.parse(v) : v;
};
const attr = (s: DecodedSpan, key: string) => s.attributes[`obs.observation.${key}`];
/** Observation types in span order, sorted, e.g. `['agent', 'chain', 'generation']`. */
const types = (spans: DecodedSpan[]) => spans.map((s) => String(type(s))).sort();

/** What each variant's call emits around its model calls: the agent, plus a chain per step on semconv. */
function expectedTypes(v: Variant, steps: number, extra: string[] = []): string[] {
  return ['agent', ...Array(steps).fill('generation'), ...(v.semconv ? Array(steps).fill('chain') : []), ...extra].sort();
}

for (const v of VARIANTS) {
  const { ai } = v;

  describe(v.name, () => {
    it('generateText: one generation with the system prompt, the answer, parameters and usage split by bucket; the agent has the answer', async () => {
      const { model } = mockModel(v, [{ text: 'Sunny' }]);
      const { result, spans } = await traced(() =>
        ai.generateText({
          model,
          system: SYSTEM,
          messages: [{ role: 'user', content: QUESTION }],
          temperature: 0.3,
          maxOutputTokens: 50,
          experimental_telemetry: telemetry(v),
        }),
      );
      expect(result.text).toBe('Sunny');
      expect(types(spans)).toEqual(expectedTypes(v, 1));
      const [gen] = ofType(spans, 'generation');
      expect(attr(gen!, 'model.name')).toBe('mock-model');
      expect(json(gen!, 'input')).toEqual([
        { role: 'system', content: SYSTEM },
        { role: 'user', content: QUESTION },
      ]);
      expect(json(gen!, 'output')).toEqual({ role: 'assistant', content: 'Sunny' });
      expect(json(gen!, 'model.parameters')).toMatchObject({ temperature: 0.3, max_tokens: 50 });
      expect(json(gen!, 'usage_details')).toEqual(expectedUsage(v.reports.generate));
      expect(attr(gen!, 'completion_start_time')).toBeUndefined();
      expect(attr(gen!, 'level')).toBeUndefined();
      const [agent] = ofType(spans, 'agent');
      expect(json(agent!, 'input')).toEqual([
        { role: 'system', content: SYSTEM },
        { role: 'user', content: QUESTION },
      ]);
      expect(json(agent!, 'output')).toEqual({ role: 'assistant', content: 'Sunny' });
      // Usage is counted once, on the generation: the agent carries none.
      expect(attr(agent!, 'usage_details')).toBeUndefined();
    });

    it('a tool loop: two generations (tool call, then answer), a tool with its arguments and result, the agent answers with the text', async () => {
      const { model, calls } = mockModel(v, [{ toolCall: { id: 'call-1', name: 'weather', input: { city: 'Paris' } } }, { text: 'Sunny' }]);
      const weather = ai.tool({
        description: 'The weather in a city',
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }: { city: string }) => `sunny in ${city}`,
      });
      const { result, spans } = await traced(() =>
        ai.generateText({
          model,
          system: SYSTEM,
          prompt: QUESTION,
          tools: { weather },
          stopWhen: ai.stepCountIs(3),
          experimental_telemetry: telemetry(v),
        }),
      );
      expect(result.text).toBe('Sunny');
      expect(calls()).toBe(2);
      expect(types(spans)).toEqual(expectedTypes(v, 2, ['tool']));
      const [tool] = ofType(spans, 'tool');
      expect(json(tool!, 'input')).toEqual({ city: 'Paris' });
      expect(attr(tool!, 'output')).toBe('sunny in Paris');
      const gens = ofType(spans, 'generation').sort((a, b) => Number(a.startTimeUnixNano - b.startTimeUnixNano));
      const call = { id: 'call-1', name: 'weather', args: { city: 'Paris' } };
      expect(json(gens[0]!, 'output')).toEqual({ role: 'assistant', content: '', tool_calls: [call] });
      expect(json(gens[1]!, 'input')).toEqual([
        { role: 'system', content: SYSTEM },
        { role: 'user', content: QUESTION },
        { role: 'assistant', content: '', tool_calls: [call] },
        { role: 'tool', tool_call_id: 'call-1', content: 'sunny in Paris' },
      ]);
      expect(json(gens[1]!, 'output')).toEqual({ role: 'assistant', content: 'Sunny' });
      for (const g of gens) expect(json(g, 'usage_details')).toEqual(expectedUsage(v.reports.generate));
      // The final answer is the text, never the tool's result.
      const answer = json(ofType(spans, 'agent')[0]!, 'output');
      expect(answer.role).toBe('assistant');
      expect(answer.content).toBe('Sunny');
      for (const c of answer.tool_calls ?? []) expect(c).toEqual(call);
    });

    it('streamText: the generation has the streamed text, usage and completion_start_time inside the call', async () => {
      const { model } = mockModel(v, [{ text: 'Hello there' }]);
      const { result, spans } = await traced(async () => {
        const r = ai.streamText({ model, system: SYSTEM, prompt: QUESTION, experimental_telemetry: telemetry(v) });
        let text = '';
        for await (const delta of r.textStream) text += delta;
        return text;
      });
      expect(result).toBe('Hello there');
      expect(types(spans)).toEqual(expectedTypes(v, 1));
      const [gen] = ofType(spans, 'generation');
      expect(json(gen!, 'output')).toEqual({ role: 'assistant', content: 'Hello there' });
      expect(json(gen!, 'input')[0]).toEqual({ role: 'system', content: SYSTEM });
      expect(json(gen!, 'usage_details')).toEqual(expectedUsage(v.reports.stream));
      const start = new Date(String(attr(gen!, 'completion_start_time'))).getTime();
      // Millisecond precision on both sides; the first chunk comes >= 5 ms after the call started.
      expect(start).toBeGreaterThan(gen!.startTime.getTime());
      expect(start).toBeLessThanOrEqual(gen!.endTime.getTime());
      expect(json(ofType(spans, 'agent')[0]!, 'output')).toEqual({ role: 'assistant', content: 'Hello there' });
    });

    it('an aborted streamText: WARNING with a status message on the agent and (where the SDK ends it) the generation', async () => {
      let release!: () => void;
      const pause = new Promise<void>((r) => (release = r));
      const { model } = mockModel(v, [{ text: 'Hello there' }], { pauseAfterFirstChunk: pause });
      const abort = new AbortController();
      const { result, spans } = await traced(async () => {
        const r = ai.streamText({
          model,
          prompt: QUESTION,
          abortSignal: abort.signal,
          experimental_telemetry: telemetry(v),
          onError: () => {},
        });
        let text = '';
        for await (const delta of r.textStream) {
          text += delta;
          abort.abort();
          release();
        }
        return text;
      });
      expect(result).toBe('Hello '); // the first delta only
      const [agent] = ofType(spans, 'agent');
      expect(attr(agent!, 'level')).toBe('WARNING');
      expect(attr(agent!, 'status_message')).toMatch(/aborted/);
      // AI SDK 5 and 6 never end the model call's span of an aborted stream: it is not exported.
      const gens = ofType(spans, 'generation');
      expect(gens).toHaveLength(v.spec === 4 ? 1 : 0);
      for (const g of gens) {
        expect(attr(g, 'level')).toBe('WARNING');
        expect(attr(g, 'status_message')).toMatch(/aborted/);
      }
    });

    it('generateObject: the generation and the agent answer with the object’s JSON text', async () => {
      const { model } = mockModel(v, [{ text: '{"city":"Paris","sunny":true}' }]);
      const { result, spans } = await traced(() =>
        ai.generateObject({
          model,
          system: SYSTEM,
          prompt: QUESTION,
          schema: z.object({ city: z.string(), sunny: z.boolean() }),
          experimental_telemetry: telemetry(v),
        }),
      );
      expect(result.object).toEqual({ city: 'Paris', sunny: true });
      const gens = ofType(spans, 'generation');
      expect(gens).toHaveLength(1);
      expect(json(gens[0]!, 'input')[0]).toEqual({ role: 'system', content: SYSTEM });
      expect(JSON.parse(json(gens[0]!, 'output').content)).toEqual({ city: 'Paris', sunny: true });
      const [agent] = ofType(spans, 'agent');
      expect(JSON.parse(json(agent!, 'output').content)).toEqual({ city: 'Paris', sunny: true });
      expect(attr(agent!, 'level')).toBeUndefined();
    });

    it('a throwing model: the generation and the agent are level ERROR with the message', async () => {
      const { model } = mockModel(v, [{ text: 'never' }], { fail: 'model exploded' });
      const { result, spans } = await traced(() =>
        ai.generateText({ model, prompt: QUESTION, maxRetries: 0, experimental_telemetry: telemetry(v) }).catch((e: Error) => e),
      );
      expect(result).toBeInstanceOf(Error);
      expect(types(spans)).toEqual(expectedTypes(v, 1));
      for (const s of [...ofType(spans, 'generation'), ...ofType(spans, 'agent')]) {
        expect(attr(s, 'level'), s.name).toBe('ERROR');
        expect(attr(s, 'status_message'), s.name).toBe('model exploded');
      }
    });

    it('embed and embedMany: exactly one embedding per model call, with its usage, under a chain', async () => {
      const one = mockEmbeddingModel(v, 7);
      const { spans: single } = await traced(() => ai.embed({ model: one.model, value: 'hello', experimental_telemetry: telemetry(v) }));
      expect(one.calls()).toBe(1);
      expect(types(single)).toEqual(['chain', 'embedding']);
      const [emb] = ofType(single, 'embedding');
      expect(attr(emb!, 'model.name')).toBe('mock-embedder');
      expect(json(emb!, 'usage_details')).toEqual({ input: 7, total: 7 });

      const many = mockEmbeddingModel(v, 5);
      const { result, spans } = await traced(() =>
        ai.embedMany({ model: many.model, values: ['a', 'b', 'c'], experimental_telemetry: telemetry(v) }),
      );
      expect(result.embeddings).toHaveLength(3);
      expect(many.calls()).toBe(3);
      expect(types(spans)).toEqual(['chain', 'embedding', 'embedding', 'embedding']);
      for (const e of ofType(spans, 'embedding')) expect(json(e, 'usage_details')).toEqual({ input: 5, total: 5 });
    });
  });
}

it('usage buckets add up to what the model reported', () => {
  const u = expectedUsage({ cacheRead: true, cacheWrite: true, reasoning: true });
  expect(u['input']! + u['input_cache_read']! + u['input_cache_write']!).toBe(USAGE.input);
  expect(u['output']! + u['output_reasoning']!).toBe(USAGE.output);
});

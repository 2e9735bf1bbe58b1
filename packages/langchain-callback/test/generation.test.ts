import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { FakeLLM, FakeListChatModel } from '@langchain/core/utils/testing';
import { dispatchCustomEvent } from '@langchain/core/callbacks/dispatch';
import { RunnableLambda } from '@langchain/core/runnables';
import { describe, expect, it } from 'vitest';
import { CallbackHandler } from '../src/index.js';
import { UsageChatModel } from './fakes.js';
import { attr, json, metadata, one, settle, initTestObs, setupObsServer } from './support.js';

const h = setupObsServer({ init: initTestObs });

const WEATHER_TOOL = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
};

function replyWithToolCall(): AIMessage {
  return new AIMessage({
    content: '',
    tool_calls: [{ id: 'call_1', name: 'get_weather', args: { city: 'Paris' }, type: 'tool_call' }],
    response_metadata: { model_name: 'gpt-4o-2024-08-06', finish_reason: 'tool_calls' },
    usage_metadata: {
      input_tokens: 120,
      output_tokens: 50,
      total_tokens: 170,
      input_token_details: { cache_read: 100, cache_creation: 5 },
      output_token_details: { reasoning: 30 },
    },
  });
}

describe('generations', () => {
  it('records messages with roles and tool calls, tools offered, model names, parameters, provider and usage', async () => {
    const handler = new CallbackHandler();
    const model = new UsageChatModel(replyWithToolCall());
    await model.invoke(
      [
        new SystemMessage('You are a weather bot.'),
        new HumanMessage('Weather in Paris?'),
        new AIMessage({ content: '', tool_calls: [{ id: 'call_0', name: 'get_weather', args: { city: 'Lyon' }, type: 'tool_call' }] }),
        new ToolMessage({ content: 'rainy', tool_call_id: 'call_0' }),
      ],
      { callbacks: [handler], tools: [WEATHER_TOOL], tool_choice: 'auto' } as never,
    );
    const spans = await settle(h);
    const gen = one(spans, 'UsageChatModel');
    expect(attr(gen, 'obs.observation.type')).toBe('generation');

    const input = json(gen, 'input');
    expect(input.messages).toEqual([
      { role: 'system', content: 'You are a weather bot.' },
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'call_0', name: 'get_weather', args: { city: 'Lyon' }, type: 'tool_call' }] },
      { role: 'tool', content: 'rainy', tool_call_id: 'call_0' },
    ]);
    expect(input.tools).toEqual([WEATHER_TOOL]);
    expect(input.tool_choice).toBe('auto');

    expect(json(gen, 'output')).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'call_1', name: 'get_weather', args: { city: 'Paris' }, type: 'tool_call' }],
    });
    // The response's model wins; the requested one is kept.
    expect(attr(gen, 'obs.observation.model.name')).toBe('gpt-4o-2024-08-06');
    expect(metadata(gen, 'requested_model')).toBe('gpt-4o');
    expect(metadata(gen, 'finish_reason')).toBe('tool_calls');
    expect(metadata(gen, 'provider')).toBe('openai');
    expect(json(gen, 'model.parameters')).toEqual({ temperature: 0.2, max_tokens: 256 });

    // input 120 = 15 uncached + 100 cache read + 5 cache write; output 50 = 20 + 30 reasoning.
    expect(json(gen, 'usage_details')).toEqual({
      input: 15,
      input_cache_read: 100,
      input_cache_write: 5,
      output: 20,
      output_reasoning: 30,
      total: 170,
    });
  });

  it('keeps the requested model name when the response reports the same or none', async () => {
    const handler = new CallbackHandler();
    await new UsageChatModel(new AIMessage({ content: 'hi', response_metadata: { model_name: 'gpt-4o' } })).invoke('x', {
      callbacks: [handler],
    });
    await new UsageChatModel(new AIMessage('no usage')).invoke('y', { callbacks: [handler] });
    const spans = await settle(h);
    const [a, b] = spans.filter((s) => s.name === 'UsageChatModel');
    for (const s of [a, b]) {
      expect(attr(s, 'obs.observation.model.name')).toBe('gpt-4o');
      expect(metadata(s, 'requested_model')).toBeUndefined();
    }
    expect(attr(b, 'obs.observation.usage_details')).toBeUndefined();
  });

  it('sets completion_start_time at the first streamed token', async () => {
    for (const background of [false, true]) {
      h.server.reset();
      const handler = new CallbackHandler({ background });
      const model = new FakeListChatModel({ responses: ['abcd'], sleep: 25 });
      const firstTokenSeen: number[] = [];
      const startedAt = Date.now();
      for await (const chunk of await model.stream('go', { callbacks: [handler] })) {
        if (firstTokenSeen.length === 0) firstTokenSeen.push(Date.now());
        expect(typeof chunk.content).toBe('string');
      }
      const spans = await settle(h);
      const gen = one(spans, 'FakeListChatModel');
      const cst = new Date(attr(gen, 'obs.observation.completion_start_time') as string).getTime();
      // The first token comes ~25 ms after the start, the last ~100 ms after it.
      expect(cst - gen.startTime.getTime()).toBeGreaterThanOrEqual(15);
      expect(gen.endTime.getTime() - cst).toBeGreaterThanOrEqual(50);
      // Loose on purpose: the machine may be loaded; the gaps above are what the feature is about.
      expect(Math.abs(cst - firstTokenSeen[0]!)).toBeLessThan(40);
      expect(gen.startTime.getTime()).toBeGreaterThanOrEqual(startedAt - 1);
      expect(json(gen, 'output')).toEqual({ role: 'assistant', content: 'abcd' });
    }
  });

  it('links the obs prompt from run metadata obsPrompt, on the model or on the prompt template beside it', async () => {
    const handler = new CallbackHandler();
    const model = new FakeListChatModel({ responses: ['ok'] });
    await model.invoke('direct', { callbacks: [handler], metadata: { obsPrompt: { name: 'direct-prompt', version: 3 } } });
    const prompt = ChatPromptTemplate.fromMessages([['human', '{q}']]).withConfig({
      metadata: { obsPrompt: { name: 'qa-prompt', version: 7 } },
    });
    await prompt.pipe(model).invoke({ q: 'via template' }, { callbacks: [handler] });
    const spans = await settle(h);
    const [direct, viaTemplate] = spans
      .filter((s) => s.name === 'FakeListChatModel')
      .sort((a, b) => Number(a.startTimeUnixNano - b.startTimeUnixNano));
    expect(attr(direct, 'obs.observation.prompt.name')).toBe('direct-prompt');
    expect(attr(direct, 'obs.observation.prompt.version')).toBe(3);
    expect(attr(viaTemplate, 'obs.observation.prompt.name')).toBe('qa-prompt');
    expect(attr(viaTemplate, 'obs.observation.prompt.version')).toBe(7);
    // The template itself is not a generation and carries no prompt link.
    expect(attr(one(spans, 'ChatPromptTemplate'), 'obs.observation.prompt.name')).toBeUndefined();
    expect(metadata(direct, 'obsPrompt.name')).toBeUndefined();
  });

  it('text LLMs (not chat) are generations with the prompt as input and the text as output', async () => {
    const handler = new CallbackHandler();
    const out = await new FakeLLM({ response: 'forty-two' }).invoke('What is six times seven?', { callbacks: [handler] });
    expect(out).toBe('forty-two');
    const spans = await settle(h);
    const gen = one(spans, 'FakeLLM');
    expect(attr(gen, 'obs.observation.type')).toBe('generation');
    expect(attr(gen, 'obs.observation.input')).toBe('What is six times seven?');
    expect(attr(gen, 'obs.observation.output')).toBe('forty-two');
  });

  it('custom events become events under the run that dispatched them', async () => {
    const handler = new CallbackHandler();
    const step = RunnableLambda.from(async (x: string, config) => {
      await dispatchCustomEvent('progress', { done: 1, of: 2 }, config);
      return x;
    }).withConfig({ runName: 'step' });
    await step.invoke('x', { callbacks: [handler] });
    const spans = await settle(h);
    const ev = one(spans, 'progress');
    expect(attr(ev, 'obs.observation.type')).toBe('event');
    expect(ev.parentSpanId).toBe(one(spans, 'step').spanId);
    expect(json(ev, 'input')).toEqual({ done: 1, of: 2 });
  });
});

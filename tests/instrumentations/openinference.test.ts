/**
 * Instrumentation users already have (issue 46 item 6): OpenInference's own instrumentations
 * (`@arizeai/openinference-instrumentation-openai`, `-anthropic`, `-bedrock`) on the real
 * `openai`, `@anthropic-ai/sdk` and `@aws-sdk/client-bedrock-runtime` against local stand-in APIs
 * (Bedrock over HTTP/2, the SDK's default), their spans exported by obs's default filter and read
 * back from the local obs server as obs observations field by field: type, model, parameters,
 * input (system prompt first), output (text, tool calls, reasoning), usage in obs's disjoint
 * buckets, level, parent. (`@anthropic-ai/sdk` 1.x traces itself too, with GenAI spans of its
 * own: those are `genai-semconv.test.ts`'s; here only OpenInference's spans are read.) An OpenAI
 * API error is left out: OpenInference's OpenAI instrumentation records no span for it.
 */
import { AnthropicInstrumentation } from '@arizeai/openinference-instrumentation-anthropic';
import { BedrockInstrumentation } from '@arizeai/openinference-instrumentation-bedrock';
import { OpenAIInstrumentation } from '@arizeai/openinference-instrumentation-openai';
import * as anthropicModule from '@anthropic-ai/sdk';
import * as bedrockModule from '@aws-sdk/client-bedrock-runtime';
import { initObs, startActiveObservation } from '@obs/core';
import { obsAttr as attr, obsJson as json, setupObsServer } from '@obs/local-server/testing';
import * as openaiModule from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicMessage, INVALID_REQUEST, streamedHelloThere, TOOL_RESULT_MESSAGES, TOOL_TURN } from './anthropic-turns.js';
import { only, QUESTION, SYSTEM, tracedSpans, WEATHER_CALL } from './fixtures.js';
import { startStandIn, type StandIn } from './stand-in-apis.js';

const local = setupObsServer({ init: (c) => initObs({ ...c, flushInterval: 0.05, flushOnExit: false }) });

let api: StandIn;
let bedrockApi: StandIn;
let openai: openaiModule.OpenAI;
let anthropic: anthropicModule.Anthropic;
let bedrock: bedrockModule.BedrockRuntimeClient;

beforeAll(async () => {
  // ES modules are not patched at import: each instrumentation is handed its module.
  new OpenAIInstrumentation().manuallyInstrument(openaiModule as never);
  new AnthropicInstrumentation().manuallyInstrument(anthropicModule as never);
  new BedrockInstrumentation().manuallyInstrument(bedrockModule as never);
  [api, bedrockApi] = await Promise.all([startStandIn(), startStandIn(true)]);
  openai = new openaiModule.OpenAI({ apiKey: 'sk-test', baseURL: `${api.url}/v1`, maxRetries: 0 });
  anthropic = new anthropicModule.Anthropic({ apiKey: 'sk-ant-test', baseURL: api.url, maxRetries: 0 });
  bedrock = new bedrockModule.BedrockRuntimeClient({
    region: 'us-east-1',
    endpoint: bedrockApi.url,
    credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' },
    maxAttempts: 1,
  });
});

afterAll(async () => {
  bedrock.destroy();
  await Promise.all([api.close(), bedrockApi.close()]);
});

/** Runs `fn` under a root observation; returns the OpenInference spans below it, each checked to be the root's child. */
const traced = (fn: () => Promise<unknown>) => tracedSpans(local, fn, (s) => s.scope.name.startsWith('@arizeai/openinference'));

describe('@arizeai/openinference-instrumentation-openai', () => {
  const completion = (message: Record<string, unknown>, usage: Record<string, unknown>) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4o-2024-08-06',
    choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: 'stop' }],
    usage,
  });

  it('chat completion with a tool call: one generation with the model, parameters, messages, tool call and usage buckets', async () => {
    api.reply('/chat/completions', {
      json: completion(
        { tool_calls: [{ id: 'call-1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] },
        {
          prompt_tokens: 100,
          completion_tokens: 30,
          total_tokens: 130,
          prompt_tokens_details: { cached_tokens: 40 },
          completion_tokens_details: { reasoning_tokens: 10 },
        },
      ),
    });
    const spans = await traced(() =>
      openai.chat.completions.create({
        model: 'gpt-4o',
        temperature: 0.3,
        max_tokens: 50,
        messages: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: QUESTION },
        ],
      }),
    );
    const gen = only(spans);
    expect(gen.scope.name).toBe('@arizeai/openinference-instrumentation-openai');
    expect(attr(gen, 'type')).toBe('generation');
    expect(attr(gen, 'model.name')).toBe('gpt-4o-2024-08-06');
    expect(json(gen, 'model.parameters')).toEqual({ temperature: 0.3, max_tokens: 50 });
    expect(json(gen, 'input')).toEqual([
      { role: 'system', content: SYSTEM },
      { role: 'user', content: QUESTION },
    ]);
    expect(json(gen, 'output')).toEqual({ role: 'assistant', content: '', tool_calls: [WEATHER_CALL] });
    expect(json(gen, 'usage_details')).toEqual({ input: 60, input_cache_read: 40, output: 20, output_reasoning: 10, total: 130 });
    expect(attr(gen, 'level')).toBeUndefined();
  });

  it('the follow-up turn: the assistant tool call and the tool result in the input, the answer as output', async () => {
    api.reply('/chat/completions', {
      json: completion({ content: 'Sunny' }, { prompt_tokens: 12, completion_tokens: 2, total_tokens: 14 }),
    });
    const spans = await traced(() =>
      openai.chat.completions.create({
        model: 'gpt-4o',
        messages: [
          { role: 'user', content: QUESTION },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call-1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
          },
          { role: 'tool', tool_call_id: 'call-1', content: '{"sky":"sunny"}' },
        ],
      }),
    );
    const gen = only(spans);
    expect(json(gen, 'input')).toEqual([
      { role: 'user', content: QUESTION },
      { role: 'assistant', content: '', tool_calls: [WEATHER_CALL] },
      { role: 'tool', tool_call_id: 'call-1', content: { sky: 'sunny' } },
    ]);
    expect(json(gen, 'output')).toEqual({ role: 'assistant', content: 'Sunny' });
    expect(json(gen, 'usage_details')).toEqual({ input: 12, output: 2, total: 14 });
  });

  it('a streamed chat completion: the streamed text and its usage', async () => {
    const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      id: 'chatcmpl-2',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-4o-2024-08-06',
      choices: [{ index: 0, delta, finish_reason: null }],
      ...extra,
    });
    api.reply('/chat/completions', {
      sse: [
        chunk({ role: 'assistant', content: 'Hello ' }),
        chunk({ content: 'there' }),
        { ...chunk({}), choices: [], usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } },
      ],
    });
    let text = '';
    const spans = await traced(async () => {
      const stream = await openai.chat.completions.create({
        model: 'gpt-4o',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'Hi' }],
      });
      for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
    });
    expect(text).toBe('Hello there');
    const gen = only(spans);
    expect(json(gen, 'output')).toEqual({ role: 'assistant', content: 'Hello there' });
    expect(json(gen, 'input')).toEqual([{ role: 'user', content: 'Hi' }]);
    expect(attr(gen, 'model.parameters')).toBeUndefined(); // stream and stream_options are not parameters
  });

  it('embeddings: one embedding with the model and the input texts', async () => {
    api.reply('/embeddings', {
      json: {
        object: 'list',
        model: 'text-embedding-3-small',
        data: [
          { object: 'embedding', index: 0, embedding: [0.1, 0.2] },
          { object: 'embedding', index: 1, embedding: [0.3, 0.4] },
        ],
        usage: { prompt_tokens: 4, total_tokens: 4 },
      },
    });
    const spans = await traced(() => openai.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'] }));
    const emb = only(spans);
    expect(attr(emb, 'type')).toBe('embedding');
    expect(attr(emb, 'model.name')).toBe('text-embedding-3-small');
    expect(json(emb, 'input')).toEqual(['a', 'b']);
  });

  it('10 concurrent calls, each under its own parent', async () => {
    api.reply('/chat/completions', { json: completion({ content: 'ok' }, { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }) });
    const roots = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        startActiveObservation(`request-${i}`, async (obs) => {
          await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: `q${i}` }] });
          return obs.id;
        }),
      ),
    );
    await local.handle.flush();
    const gens = local.server.spans().filter((s) => attr(s, 'type') === 'generation');
    expect(gens).toHaveLength(10);
    for (const [i, root] of roots.entries()) {
      const gen = gens.find((g) => g.parentSpanId === root)!;
      expect(json(gen, 'input')).toEqual([{ role: 'user', content: `q${i}` }]);
    }
  });

  it('outside any obs observation, the OpenInference span is exported by the default filter, as a root', async () => {
    api.reply('/chat/completions', { json: completion({ content: 'ok' }, { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }) });
    await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'alone' }] });
    await local.handle.flush();
    const gen = only(local.server.spans());
    expect(gen.parentSpanId).toBeFalsy();
    expect(attr(gen, 'type')).toBe('generation');
  });
});

describe('@arizeai/openinference-instrumentation-anthropic', () => {
  const MODEL = 'claude-sonnet-4-5-20250929';

  it('messages.create: the system prompt first, thinking as reasoning, tool_use as a tool call, cache reads and writes as buckets', async () => {
    api.reply('/messages', { json: anthropicMessage(MODEL, TOOL_TURN.content, TOOL_TURN.usage) });
    const spans = await traced(() =>
      anthropic.messages.create({
        model: 'claude-test',
        max_tokens: 1024,
        temperature: 0.5,
        top_k: 5,
        system: SYSTEM,
        messages: [{ role: 'user', content: QUESTION }],
      }),
    );
    const gen = only(spans);
    expect(gen.scope.name).toBe('@arizeai/openinference-instrumentation-anthropic');
    expect(attr(gen, 'type')).toBe('generation');
    expect(attr(gen, 'model.name')).toBe(MODEL);
    expect(json(gen, 'model.parameters')).toEqual({ max_tokens: 1024, temperature: 0.5, top_k: 5 });
    expect(json(gen, 'input')).toEqual([
      { role: 'system', content: SYSTEM },
      { role: 'user', content: QUESTION },
    ]);
    expect(json(gen, 'output')).toEqual(TOOL_TURN.output);
    expect(json(gen, 'usage_details')).toEqual(TOOL_TURN.usageDetails);
  });

  it('a tool result block and system text blocks: tool message and system messages', async () => {
    api.reply('/messages', { json: anthropicMessage(MODEL, [{ type: 'text', text: 'Sunny' }], { input_tokens: 20, output_tokens: 1 }) });
    const spans = await traced(() =>
      anthropic.messages.create({
        model: 'claude-test',
        max_tokens: 100,
        system: [{ type: 'text', text: SYSTEM }],
        messages: TOOL_RESULT_MESSAGES,
      }),
    );
    const gen = only(spans);
    expect(json(gen, 'input')).toEqual([
      { role: 'system', content: SYSTEM },
      { role: 'user', content: QUESTION },
      { role: 'assistant', content: '', tool_calls: [WEATHER_CALL] },
      { role: 'tool', tool_call_id: 'call-1', content: 'sunny' },
    ]);
    expect(json(gen, 'output')).toEqual({ role: 'assistant', content: 'Sunny' });
  });

  it('a streamed message: the text and the usage of message_start and message_delta', async () => {
    api.reply('/messages', streamedHelloThere(MODEL));
    let text = '';
    const spans = await traced(async () => {
      const stream = await anthropic.messages.create({
        model: 'claude-test',
        max_tokens: 100,
        stream: true,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      for await (const event of stream)
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    });
    expect(text).toBe('Hello there');
    const gen = only(spans);
    expect(json(gen, 'output')).toEqual({ role: 'assistant', content: 'Hello there' });
    expect(json(gen, 'usage_details')).toEqual({ input: 9, output: 2, total: 11 });
  });
});

describe('@arizeai/openinference-instrumentation-anthropic: errors', () => {
  it('an API error: the generation is ERROR with the message, the error reaches the caller unchanged', async () => {
    api.reply('/messages', INVALID_REQUEST);
    let caught: unknown;
    const spans = await traced(() =>
      anthropic.messages.create({ model: 'claude-test', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }).catch((e) => {
        caught = e;
      }),
    );
    expect(caught).toBeInstanceOf(anthropicModule.Anthropic.BadRequestError);
    const gen = only(spans);
    expect(attr(gen, 'level')).toBe('ERROR');
    expect(String(attr(gen, 'status_message'))).toContain('bad request body');
  });
});

describe('@arizeai/openinference-instrumentation-bedrock', () => {
  it('Converse: system and messages, inferenceConfig as parameters, text and toolUse as the output, usage', async () => {
    bedrockApi.reply('/converse', {
      json: {
        output: {
          message: {
            role: 'assistant',
            content: [{ text: 'Let me check.' }, { toolUse: { toolUseId: 'call-1', name: 'weather', input: { city: 'Paris' } } }],
          },
        },
        stopReason: 'tool_use',
        usage: { inputTokens: 100, outputTokens: 30, totalTokens: 130 },
        metrics: { latencyMs: 10 },
      },
    });
    const spans = await traced(() =>
      bedrock.send(
        new bedrockModule.ConverseCommand({
          modelId: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          system: [{ text: SYSTEM }],
          messages: [{ role: 'user', content: [{ text: QUESTION }] }],
          inferenceConfig: { maxTokens: 256, temperature: 0.2, topP: 0.9 },
        }),
      ),
    );
    expect(bedrockApi.calls.at(-1)?.path).toBe('/model/anthropic.claude-3-5-sonnet-20240620-v1:0/converse');
    const gen = only(spans);
    expect(gen.scope.name).toBe('@arizeai/openinference-instrumentation-bedrock');
    expect(attr(gen, 'type')).toBe('generation');
    expect(String(attr(gen, 'model.name'))).toContain('claude-3-5-sonnet');
    expect(json(gen, 'model.parameters')).toEqual({ max_tokens: 256, temperature: 0.2, top_p: 0.9 });
    expect(json(gen, 'input')).toEqual([
      { role: 'system', content: SYSTEM },
      { role: 'user', content: QUESTION },
    ]);
    expect(json(gen, 'output')).toEqual({ role: 'assistant', content: 'Let me check.', tool_calls: [WEATHER_CALL] });
    expect(json(gen, 'usage_details')).toEqual({ input: 100, output: 30, total: 130 });
  });
});

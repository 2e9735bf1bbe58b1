/**
 * OpenAI-compatible providers through `observeOpenAI`, with the real `openai` 7 package: each
 * client points at its provider's base URL and its requests reach the local stand-in (the SDK's
 * own `fetch` option re-targets them), so the provider is read from the URL the app configured.
 * The `provider` metadata per provider, the option that overrides it, self-hosted servers known
 * by their answers, the providers' usage extensions (DeepSeek's cache hits, OpenRouter's cache
 * writes and cost, Groq's streamed usage), and the wrap itself: the caller's client stays
 * untraced and keeps its class.
 */
import OpenAI, { AzureOpenAI } from 'openai';
import { describe, expect, it } from 'vitest';
import { observeOpenAI } from '../src/index.js';
import { completion } from './fake-openai.js';
import { API_KEY, attr, json, setup } from './harness.js';

const t = setup();

/** The SDK's fetch, sending every chat request to the stand-in whatever host the client was given. */
const toStandIn: typeof fetch = (_input, init) => fetch(`${t.fake.baseURL}/chat/completions`, init);
const client = (baseURL: string) => new OpenAI({ apiKey: API_KEY, baseURL, maxRetries: 0, fetch: toStandIn });
const MESSAGES = [{ role: 'user' as const, content: 'Hi' }];
const ask = (c: OpenAI, model: string) => c.chat.completions.create({ model, messages: MESSAGES });

describe('OpenAI-compatible providers', () => {
  it('the provider is read from the base URL: one generation per call, each with its provider', async () => {
    const providers: Array<[string, OpenAI, string]> = [
      ['openai', client('https://api.openai.com/v1'), 'm-openai'],
      ['groq', client('https://api.groq.com/openai/v1'), 'm-groq'],
      ['openrouter', client('https://openrouter.ai/api/v1'), 'm-openrouter'],
      ['deepseek', client('https://api.deepseek.com'), 'm-deepseek'],
      ['together', client('https://api.together.xyz/v1'), 'm-together'],
      ['fireworks', client('https://api.fireworks.ai/inference/v1'), 'm-fireworks'],
      ['xai', client('https://api.x.ai/v1'), 'm-xai'],
      ['mistral', client('https://api.mistral.ai/v1'), 'm-mistral'],
      ['ollama', client('http://localhost:11434/v1'), 'm-ollama'],
      [
        'azure',
        new AzureOpenAI({
          apiKey: API_KEY,
          endpoint: 'https://contoso.openai.azure.com',
          apiVersion: '2025-04-01-preview',
          deployment: 'chat',
          maxRetries: 0,
          fetch: toStandIn,
        }),
        'm-azure',
      ],
    ];
    t.fake.reply('/chat/completions', { json: completion({ content: 'Hello.' }) });
    const { spans } = await t.traced(async () => {
      for (const [, c, model] of providers) await ask(observeOpenAI(c), model);
    });
    expect(t.fake.calls).toHaveLength(providers.length);
    expect(spans).toHaveLength(providers.length);
    const sorted = spans.sort((a, b) => Number(a.startTimeUnixNano - b.startTimeUnixNano));
    expect(sorted.map((s) => attr(s, 'metadata.provider'))).toEqual(providers.map(([provider]) => provider));
    for (const gen of sorted) expect(json(gen, 'output')).toEqual({ role: 'assistant', content: 'Hello.' });
  });

  it('a self-hosted server the URL does not name: vLLM and Ollama known by their answers; the option overrides all', async () => {
    t.fake.reply('/chat/completions', [
      { json: { ...completion({ content: 'a' }), prompt_logprobs: null, kv_transfer_params: null } },
      { json: { ...completion({ content: 'b' }), system_fingerprint: 'fp_ollama' } },
      { json: completion({ content: 'c' }) },
      { json: { ...completion({ content: 'd' }), system_fingerprint: 'fp_ollama' } },
    ]);
    const local = () => new OpenAI({ apiKey: API_KEY, baseURL: t.fake.baseURL, maxRetries: 0 });
    const { spans } = await t.traced(async () => {
      await ask(observeOpenAI(local()), 'm');
      await ask(observeOpenAI(local()), 'm');
      await ask(observeOpenAI(local()), 'm');
      await ask(observeOpenAI(local(), { provider: 'my-gateway' }), 'm');
    });
    const sorted = spans.sort((a, b) => Number(a.startTimeUnixNano - b.startTimeUnixNano));
    expect(sorted.map((s) => attr(s, 'metadata.provider'))).toEqual(['vllm', 'ollama', undefined, 'my-gateway']);
  });

  it("DeepSeek's prompt_cache_hit_tokens and reasoning, OpenRouter's cache writes and cost, in obs's buckets", async () => {
    t.fake.reply('/chat/completions', [
      {
        json: completion(
          { content: 'a', reasoning_content: 'think' },
          {
            prompt_tokens: 20,
            completion_tokens: 5,
            total_tokens: 25,
            prompt_cache_hit_tokens: 12,
            prompt_cache_miss_tokens: 8,
            completion_tokens_details: { reasoning_tokens: 2 },
          },
        ),
      },
      {
        json: completion(
          { content: 'b' },
          {
            prompt_tokens: 30,
            completion_tokens: 4,
            total_tokens: 34,
            cost: 0.0012,
            prompt_tokens_details: { cached_tokens: 10, cache_write_tokens: 6 },
          },
        ),
      },
    ]);
    const { spans } = await t.traced(async () => {
      await ask(observeOpenAI(client('https://api.deepseek.com')), 'deepseek-reasoner');
      await ask(observeOpenAI(client('https://openrouter.ai/api/v1')), 'anthropic/claude');
    });
    const [deepseek, openrouter] = spans.sort((a, b) => Number(a.startTimeUnixNano - b.startTimeUnixNano));
    expect(json(deepseek!, 'usage_details')).toEqual({ input: 8, input_cache_read: 12, output: 3, output_reasoning: 2, total: 25 });
    expect(json(deepseek!, 'output')).toEqual({ role: 'assistant', content: 'a', reasoning: 'think' });
    expect(json(openrouter!, 'usage_details')).toEqual({ input: 14, input_cache_read: 10, input_cache_write: 6, output: 4, total: 34 });
    expect(json(openrouter!, 'cost_details')).toEqual({ total: 0.0012 });
  });

  it("Groq's streamed usage (x_groq.usage in the last chunk) is read", async () => {
    const base = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'llama-test' };
    t.fake.reply('/chat/completions', {
      sse: [
        { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }] },
        {
          ...base,
          choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
          x_groq: { id: 'req_1', usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9, queue_time: 0.01 } },
        },
      ],
    });
    const { spans } = await t.traced(async () => {
      const stream = await observeOpenAI(client('https://api.groq.com/openai/v1')).chat.completions.create({
        model: 'llama-test',
        messages: MESSAGES,
        stream: true,
      });
      for await (const _ of stream);
    });
    expect(spans).toHaveLength(1);
    expect(json(spans[0]!, 'usage_details')).toEqual({ input: 7, output: 2, total: 9 });
    expect(attr(spans[0]!, 'metadata.provider')).toBe('groq');
  });

  it('the wrap: the caller’s own client stays untraced and keeps its class; the observed one is an OpenAI', async () => {
    t.fake.reply('/chat/completions', { json: completion({ content: 'Hello.' }) });
    const original = new OpenAI({ apiKey: API_KEY, baseURL: t.fake.baseURL, maxRetries: 0 });
    const observed = observeOpenAI(original);
    expect(observed).toBeInstanceOf(OpenAI);
    expect(observed.chat.completions).toBe(observed.chat.completions);
    expect(observed.baseURL).toBe(original.baseURL);
    const { spans } = await t.traced(async () => {
      await ask(original, 'm');
      await ask(observed, 'm');
    });
    expect(t.fake.calls).toHaveLength(2);
    expect(spans).toHaveLength(1);
  });
});

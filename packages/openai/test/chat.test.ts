/**
 * `chat.completions.create` through `observeOpenAI`, with the real `openai` 7 and 6 packages
 * against a local OpenAI-compatible server: one generation per call, nested under the active
 * observation, with model, parameters, normalised input and output, usage in disjoint buckets;
 * streams stay the SDK's streams, record `completion_start_time`, and end when consumed, broken
 * off, aborted or broken; errors are level ERROR; the caller's values are untouched.
 */
import OpenAI7 from 'openai';
import OpenAI6 from 'openai6';
import { describe, expect, it } from 'vitest';
import { observeOpenAI } from '../src/index.js';
import { chatChunks, completion } from './fake-openai.js';
import { API_KEY, attr, json, obsEnding, readStream, setup } from './harness.js';

const t = setup();

const USAGE = {
  prompt_tokens: 20,
  completion_tokens: 9,
  total_tokens: 29,
  prompt_tokens_details: { cached_tokens: 8, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 4, audio_tokens: 0 },
};
/** The same usage as obs buckets: cached and reasoning moved out of input and output. */
const USAGE_DETAILS = { input: 12, input_cache_read: 8, output: 5, output_reasoning: 4, total: 29 };

const MESSAGES = [
  { role: 'system' as const, content: 'You are terse.' },
  { role: 'user' as const, content: 'Weather in Paris?' },
];

for (const [label, OpenAI] of [
  ['openai 7', OpenAI7],
  ['openai 6', OpenAI6],
] as const) {
  describe(`chat.completions.create (${label})`, () => {
    const client = () => observeOpenAI(new OpenAI({ apiKey: API_KEY, baseURL: t.fake.baseURL, maxRetries: 0 }));
    const stream = () => client().chat.completions.create({ model: 'gpt-test', messages: MESSAGES, stream: true });

    it('a completion: one generation with model, parameters, messages, answer and usage; the caller gets the completion as sent', async () => {
      const sent = completion({ content: 'Sunny.' }, USAGE);
      t.fake.reply('/chat/completions', { json: sent });
      const { result, spans } = await t.traced(() =>
        client().chat.completions.create({ model: 'gpt-test', messages: MESSAGES, temperature: 0.2, max_tokens: 64 }),
      );
      expect(result).toEqual(sent);
      expect(t.fake.calls).toHaveLength(1);
      expect(t.fake.calls[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
      expect(spans).toHaveLength(1);
      const gen = spans[0]!;
      expect(gen.name).toBe('openai.chat.completions.create');
      expect(attr(gen, 'type')).toBe('generation');
      expect(attr(gen, 'model.name')).toBe('gpt-test-2026');
      expect(json(gen, 'model.parameters')).toEqual({ temperature: 0.2, max_tokens: 64 });
      expect(json(gen, 'input')).toEqual(MESSAGES);
      expect(json(gen, 'output')).toEqual({ role: 'assistant', content: 'Sunny.' });
      expect(json(gen, 'usage_details')).toEqual(USAGE_DETAILS);
      expect(attr(gen, 'completion_start_time')).toBeUndefined();
      expect(attr(gen, 'level')).toBeUndefined();
    });

    it('tool calls: normalised to { id, name, args } in the output and in the next call’s input', async () => {
      const call = { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } };
      t.fake.reply('/chat/completions', [
        { json: completion({ tool_calls: [call] }, USAGE, 'tool_calls') },
        { json: completion({ content: 'Sunny.' }) },
      ]);
      const openai = client();
      const tools = [
        {
          type: 'function' as const,
          function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
        },
      ];
      const { spans } = await t.traced(async () => {
        const first = await openai.chat.completions.create({ model: 'gpt-test', messages: MESSAGES, tools });
        const toolCall = first.choices[0]!.message.tool_calls![0]!;
        return openai.chat.completions.create({
          model: 'gpt-test',
          messages: [...MESSAGES, first.choices[0]!.message, { role: 'tool', tool_call_id: toolCall.id, content: 'sunny in Paris' }],
        });
      });
      expect(spans).toHaveLength(2);
      const [first, second] = spans.sort((a, b) => Number(a.startTimeUnixNano - b.startTimeUnixNano));
      const normalised = { id: 'call_1', name: 'weather', args: { city: 'Paris' } };
      expect(json(first!, 'output')).toEqual({ role: 'assistant', content: '', tool_calls: [normalised] });
      expect(JSON.parse(String(first!.attributes['obs.observation.metadata.tools']))).toEqual(tools);
      expect(json(second!, 'input')).toEqual(
        [
          ...MESSAGES,
          { role: 'assistant', content: '', tool_calls: [normalised], refusal: undefined },
          { role: 'tool', tool_call_id: 'call_1', content: 'sunny in Paris' },
        ].map((m) => JSON.parse(JSON.stringify(m))),
      );
    });

    it('a stream stays the SDK’s stream; consumed, the generation has the text, usage and completion_start_time', async () => {
      t.fake.reply('/chat/completions', { sse: chatChunks('Hello there', USAGE), delayMs: 5 });
      const { result, spans } = await t.traced(async () => {
        const stream = await client().chat.completions.create({
          model: 'gpt-test',
          messages: MESSAGES,
          stream: true,
          stream_options: { include_usage: true },
        });
        expect(typeof stream.tee).toBe('function');
        expect(stream.controller).toBeInstanceOf(AbortController);
        let text = '';
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
        return text;
      });
      expect(result).toBe('Hello there');
      expect(spans).toHaveLength(1);
      const gen = spans[0]!;
      expect(json(gen, 'model.parameters')).toMatchObject({ stream: true });
      // toEqual: no level and no status message, it ended well. On a loaded machine the chunks can
      // arrive in one read, the first in the stream's last millisecond.
      expect(obsEnding(gen)).toEqual({
        output: { role: 'assistant', content: 'Hello there' },
        usage: USAGE_DETAILS,
        completionStart: expect.stringMatching(/^(within|at the end)$/),
      });
    });

    it('a streamed tool call is assembled from its deltas', async () => {
      const base = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-test-2026' };
      const delta = (d: unknown, finish: string | null = null) => ({ ...base, choices: [{ index: 0, delta: d, finish_reason: finish }] });
      t.fake.reply('/chat/completions', {
        sse: [
          delta({
            role: 'assistant',
            tool_calls: [{ index: 0, id: 'call_9', type: 'function', function: { name: 'weather', arguments: '' } }],
          }),
          delta({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
          delta({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
          delta({}, 'tool_calls'),
        ],
      });
      const { spans } = await t.traced(async () => {
        for await (const _ of await stream());
      });
      expect(json(spans[0]!, 'output')).toEqual({
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'call_9', name: 'weather', args: { city: 'Oslo' } }],
      });
    });

    it('a stream the caller breaks off: WARNING with what arrived, ended at once', async () => {
      t.fake.reply('/chat/completions', { sse: chatChunks('Hello there'), delayMs: 30, hang: true });
      const { spans } = await t.traced(async () => readStream(await stream(), { leaveAfter: (_, i) => i === 1 }));
      expect(spans).toHaveLength(1);
      expect(obsEnding(spans[0]!)).toMatchObject({
        level: 'WARNING',
        statusMessage: expect.stringMatching(/stopped reading/),
        output: { role: 'assistant', content: 'Hello ' },
      });
    });

    it('a stream aborted through its controller: WARNING', async () => {
      // Chunks 30 ms apart: the abort comes long before the model's last chunk.
      t.fake.reply('/chat/completions', { sse: chatChunks('Hello there'), delayMs: 30, hang: true });
      const { spans } = await t.traced(async () => {
        const s = await stream();
        // openai 6 throws the abort; 7 ends the iteration
        return readStream(s, {
          each: (_, i) => {
            if (i === 1) s.controller.abort();
          },
        });
      });
      expect(spans).toHaveLength(1);
      expect(attr(spans[0]!, 'level')).toBe('WARNING');
    });

    it('a stream whose connection breaks: ERROR, the caller sees the SDK’s error', async () => {
      t.fake.reply('/chat/completions', { sse: chatChunks('Hello there').slice(0, 2), breakOff: true });
      const { result, spans } = await t.traced(async () => readStream(await stream()));
      expect(result.error).toBeInstanceOf(Error);
      expect(spans).toHaveLength(1);
      expect(obsEnding(spans[0]!)).toMatchObject({ level: 'ERROR', statusMessage: (result.error as Error).message });
    });

    it('an API error: ERROR with the message; the caller gets the SDK’s APIError', async () => {
      t.fake.reply('/chat/completions', {
        status: 400,
        json: { error: { message: 'model not found', type: 'invalid_request_error', code: 'model_not_found' } },
      });
      const { result, spans } = await t.traced(() =>
        client()
          .chat.completions.create({ model: 'nope', messages: MESSAGES })
          .catch((e: unknown) => e),
      );
      expect(result).toBeInstanceOf(OpenAI.APIError);
      expect((result as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
      expect(spans).toHaveLength(1);
      expect(attr(spans[0]!, 'level')).toBe('ERROR');
      expect(attr(spans[0]!, 'status_message')).toBe((result as Error).message);
      expect(attr(spans[0]!, 'model.name')).toBe('nope');
    });

    it('withResponse() and asResponse() keep working; a raw read is recorded without parsing the body', async () => {
      t.fake.reply('/chat/completions', { json: completion({ content: 'Sunny.' }, USAGE) });
      const openai = client();
      const { result, spans } = await t.traced(async () => {
        const withResponse = await openai.chat.completions.create({ model: 'gpt-test', messages: MESSAGES }).withResponse();
        const raw = await openai.chat.completions.create({ model: 'gpt-test', messages: MESSAGES }).asResponse();
        return { withResponse, rawBody: await raw.json() };
      });
      expect(result.withResponse.data.choices[0]!.message.content).toBe('Sunny.');
      expect(result.withResponse.request_id).toBe('req_test');
      expect(result.rawBody.choices[0].message.content).toBe('Sunny.');
      expect(spans).toHaveLength(2);
      const [parsed, raw] = spans.sort((a, b) => Number(a.startTimeUnixNano - b.startTimeUnixNano));
      expect(json(parsed!, 'output')).toEqual({ role: 'assistant', content: 'Sunny.' });
      expect(attr(raw!, 'output')).toBeUndefined();
      expect(attr(raw!, 'status_message')).toMatch(/raw response/);
    });

    it('parse() with a JSON schema: one generation whose output is the structured answer; the caller gets parsed', async () => {
      t.fake.reply('/chat/completions', { json: completion({ content: '{"city":"Paris","sunny":true}' }, USAGE) });
      const response_format = {
        type: 'json_schema' as const,
        json_schema: {
          name: 'weather',
          strict: true,
          schema: { type: 'object', properties: { city: { type: 'string' }, sunny: { type: 'boolean' } } },
        },
      };
      const { result, spans } = await t.traced(() =>
        client().chat.completions.parse({ model: 'gpt-test', messages: MESSAGES, response_format }),
      );
      expect(result.choices[0]!.message.parsed).toEqual({ city: 'Paris', sunny: true });
      expect(spans).toHaveLength(1);
      expect(json(spans[0]!, 'output')).toEqual({ role: 'assistant', content: '{"city":"Paris","sunny":true}' });
      expect(json(spans[0]!, 'model.parameters')).toEqual({ response_format: 'json_schema' });
      expect(JSON.parse(String(spans[0]!.attributes['obs.observation.metadata.response_format']))).toEqual(response_format);
    });

    it('observing twice, and clients from withOptions(): still one generation per call', async () => {
      t.fake.reply('/chat/completions', { json: completion({ content: 'Sunny.' }) });
      const openai = observeOpenAI(client(), { name: 'weather-bot', metadata: { feature: 'forecast' } });
      const { spans } = await t.traced(async () => {
        await openai.chat.completions.create({ model: 'gpt-test', messages: MESSAGES });
        await openai.withOptions({ timeout: 5_000 }).chat.completions.create({ model: 'gpt-test', messages: MESSAGES });
      });
      expect(spans.map((s) => s.name)).toEqual(['weather-bot', 'weather-bot']);
      for (const s of spans) expect(s.attributes['obs.observation.metadata.feature']).toBe('forecast');
    });
  });
}

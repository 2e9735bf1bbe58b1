/**
 * `messages.create` through `observeAnthropic`, with the real `@anthropic-ai/sdk` 1.x and 0.50
 * against the local stand-in Messages API: one generation per call under the active
 * observation, read back from the obs server field by field (model, parameters, system and
 * messages in obs's shape, the answer with tool calls and reasoning, usage in disjoint buckets,
 * stop reason); errors ERROR with the SDK's error reaching the caller unchanged;
 * `withResponse()` and `asResponse()`; batches and token counts left alone.
 */
import { describe, expect, it } from 'vitest';
import { observeAnthropic } from '../src/index.js';
import { apiError, message, text, thinking, toolUse, USAGE, USAGE_DETAILS } from './fake-anthropic.js';
import { API_KEY, attr, json, SDKS, setup } from './harness.js';

const t = setup();

const TOOLS = [{ name: 'weather', description: 'Weather in a city', input_schema: { type: 'object' as const, properties: {} } }];

/** API version 2026-10-21 (SDK 1.x) dropped the sampling parameters; it has `speed` and `output_config.effort`. */
const SAMPLING = {
  '@anthropic-ai/sdk 1.x': { speed: 'fast' as const, output_config: { effort: 'high' as const } },
  '@anthropic-ai/sdk 0.50': { temperature: 0.2, top_p: 0.9, top_k: 40 },
} as never as Record<string, object>;
const SAMPLING_RECORDED: Record<string, object> = {
  '@anthropic-ai/sdk 1.x': { speed: 'fast', effort: 'high' },
  '@anthropic-ai/sdk 0.50': { temperature: 0.2, top_p: 0.9, top_k: 40 },
};

for (const [label, Anthropic] of SDKS) {
  describe(`messages.create (${label})`, () => {
    const client = () => observeAnthropic(new Anthropic({ apiKey: API_KEY, baseURL: t.fake.baseURL, maxRetries: 0 }));

    it('a Message: one generation with model, parameters, system and messages, the answer, usage; the caller gets the Message as sent', async () => {
      const sent = message([
        thinking('The user wants Paris.'),
        text('Sunny, '),
        text('22 °C.'),
        toolUse('toolu_2', 'weather', { city: 'Oslo' }),
      ]);
      t.fake.reply('/v1/messages', { json: sent });
      const { result, spans } = await t.traced(() =>
        client().messages.create({
          model: 'claude-test',
          max_tokens: 256,
          ...SAMPLING[label],
          stop_sequences: ['END'],
          thinking: { type: 'enabled', budget_tokens: 1024 },
          tool_choice: { type: 'auto' },
          tools: TOOLS,
          system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
          messages: [
            { role: 'user', content: 'Weather in Paris?' },
            {
              role: 'assistant',
              content: [
                { type: 'thinking', thinking: 'Call the tool.', signature: 's' },
                { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
              ],
            },
            {
              role: 'user',
              content: [
                { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny, 22 °C' },
                { type: 'text', text: 'And Oslo?' },
              ],
            },
          ],
        }),
      );
      expect(result).toEqual(sent);
      expect(t.fake.calls).toHaveLength(1);
      expect(spans).toHaveLength(1);
      const gen = spans[0]!;
      expect(gen.name).toBe('anthropic.messages.create');
      expect(attr(gen, 'type')).toBe('generation');
      expect(attr(gen, 'model.name')).toBe('claude-test-2026');
      expect(json(gen, 'model.parameters')).toEqual({
        max_tokens: 256,
        ...SAMPLING_RECORDED[label],
        stop_sequences: ['END'],
        thinking: 'enabled',
        thinking_budget_tokens: 1024,
        tool_choice: 'auto',
      });
      expect(json(gen, 'input')).toEqual([
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'toolu_1', name: 'weather', args: { city: 'Paris' } }],
          reasoning: 'Call the tool.',
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'sunny, 22 °C' },
        { role: 'user', content: 'And Oslo?' },
      ]);
      expect(json(gen, 'output')).toEqual({
        role: 'assistant',
        content: 'Sunny, 22 °C.',
        tool_calls: [{ id: 'toolu_2', name: 'weather', args: { city: 'Oslo' } }],
        reasoning: 'The user wants Paris.',
      });
      expect(json(gen, 'usage_details')).toEqual(USAGE_DETAILS);
      expect(attr(gen, 'metadata.stop_reason')).toBe('end_turn');
      expect(JSON.parse(String(attr(gen, 'metadata.tools')))).toEqual(TOOLS);
      expect(attr(gen, 'completion_start_time')).toBeUndefined();
      expect(attr(gen, 'level')).toBeUndefined();
    });

    it('beta.messages.create: its own name, the betas in metadata; a JSON schema output format as response_format', async () => {
      t.fake.reply('/v1/messages', { json: message([text('{"city":"Paris"}')], { input_tokens: 5, output_tokens: 3 }) });
      const format = { type: 'json_schema' as const, schema: { type: 'object', properties: { city: { type: 'string' } } } };
      const { spans } = await t.traced(() =>
        client().beta.messages.create({
          model: 'claude-test',
          max_tokens: 64,
          betas: ['structured-outputs-2025-11-13'],
          output_config: { format },
          messages: [{ role: 'user', content: 'City?' }],
        } as never),
      );
      expect(spans).toHaveLength(1);
      expect(spans[0]!.name).toBe('anthropic.beta.messages.create');
      expect(json(spans[0]!, 'model.parameters')).toEqual({ max_tokens: 64, response_format: 'json_schema' });
      expect(JSON.parse(String(attr(spans[0]!, 'metadata.response_format')))).toEqual(format);
      expect(attr(spans[0]!, 'metadata.betas')).toEqual(['structured-outputs-2025-11-13']);
      expect(json(spans[0]!, 'usage_details')).toEqual({ input: 5, output: 3, total: 8 });
    });

    it('an API error: ERROR with the message; the caller gets the SDK’s own error', async () => {
      t.fake.reply('/v1/messages', { status: 400, json: apiError('invalid_request_error', 'max_tokens: field required') });
      const { result, spans } = await t.traced(() =>
        client()
          .messages.create({ model: 'claude-test', max_tokens: 1, messages: [{ role: 'user', content: 'Hi' }] })
          .catch((e: unknown) => e),
      );
      expect(result).toBeInstanceOf(Anthropic.BadRequestError);
      expect((result as InstanceType<typeof Anthropic.APIError>).status).toBe(400);
      expect(spans).toHaveLength(1);
      expect(attr(spans[0]!, 'level')).toBe('ERROR');
      expect(attr(spans[0]!, 'status_message')).toBe((result as Error).message);
      expect(attr(spans[0]!, 'model.name')).toBe('claude-test');
    });

    it('withResponse() and asResponse() keep working; a raw read is recorded without parsing the body', async () => {
      t.fake.reply('/v1/messages', { json: message([text('Sunny.')]) });
      const anthropic = client();
      const ask = () => anthropic.messages.create({ model: 'claude-test', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] });
      const { result, spans } = await t.traced(async () => {
        const withResponse = await ask().withResponse();
        const raw = await ask().asResponse();
        return { withResponse, rawBody: (await raw.json()) as { content: Array<{ text: string }> } };
      });
      expect(result.withResponse.data.content[0]).toMatchObject({ text: 'Sunny.' });
      expect(result.withResponse.response.headers.get('request-id')).toBe('req_test');
      expect(result.rawBody.content[0]!.text).toBe('Sunny.');
      expect(spans).toHaveLength(2);
      expect(json(spans[0]!, 'output')).toEqual({ role: 'assistant', content: 'Sunny.' });
      expect(attr(spans[1]!, 'output')).toBeUndefined();
      expect(attr(spans[1]!, 'status_message')).toMatch(/raw response/);
    });

    it('options name and metadata; withOptions() clients; observing twice: one generation per call', async () => {
      t.fake.reply('/v1/messages', { json: message([text('Sunny.')]) });
      const anthropic = observeAnthropic(client(), { name: 'weather-bot', metadata: { feature: 'forecast' } });
      const ask = (c: typeof anthropic) =>
        c.messages.create({ model: 'claude-test', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] });
      const { spans } = await t.traced(async () => {
        await ask(anthropic);
        await ask(anthropic.withOptions({ timeout: 5_000 }));
      });
      expect(spans.map((s) => s.name)).toEqual(['weather-bot', 'weather-bot']);
      for (const s of spans) expect(attr(s, 'metadata.feature')).toBe('forecast');
    });

    it('messages.batches and countTokens are left alone: no generation', async () => {
      t.fake.reply('/v1/messages/batches', { json: { id: 'msgbatch_1', type: 'message_batch', processing_status: 'in_progress' } });
      t.fake.reply('/v1/messages/count_tokens', { json: { input_tokens: 9 } });
      const anthropic = client();
      const params = { model: 'claude-test', max_tokens: 8, messages: [{ role: 'user' as const, content: 'Hi' }] };
      const { result, spans } = await t.traced(async () => {
        const batch = await anthropic.messages.batches.create({ requests: [{ custom_id: 'a', params }] });
        const tokens = await anthropic.messages.countTokens({ model: 'claude-test', messages: params.messages });
        return { batch, tokens };
      });
      expect(result.batch.id).toBe('msgbatch_1');
      expect(result.tokens.input_tokens).toBe(9);
      expect(t.fake.calls.map((c) => c.path)).toEqual(['/v1/messages/batches', '/v1/messages/count_tokens']);
      expect(spans).toEqual([]);
    });

    it('the caller’s own client stays untraced; the observed one keeps its class', async () => {
      t.fake.reply('/v1/messages', { json: message([text('Sunny.')], USAGE) });
      const original = new Anthropic({ apiKey: API_KEY, baseURL: t.fake.baseURL, maxRetries: 0 });
      const observed = observeAnthropic(original);
      expect(observed).toBeInstanceOf(Anthropic);
      expect(observed.messages).toBe(observed.messages);
      const ask = (c: typeof original) =>
        c.messages.create({ model: 'claude-test', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] });
      const { spans } = await t.traced(async () => {
        await ask(original);
        await ask(observed);
      });
      expect(t.fake.calls).toHaveLength(2);
      expect(spans.filter((s) => s.scope.name === 'obs-sdk')).toHaveLength(1);
    });
  });
}

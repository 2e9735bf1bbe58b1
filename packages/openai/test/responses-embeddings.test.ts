/**
 * `responses.create` (plain and streamed) and `embeddings.create` through `observeOpenAI`, with
 * the real `openai` 7 and 6 packages against a local OpenAI-compatible server: the instructions
 * as the system message, input items as messages, the output as one assistant message (text,
 * function calls, reasoning summary), usage in disjoint buckets, an incomplete response as
 * WARNING; one embedding per embeddings call with its usage.
 */
import OpenAI7 from 'openai';
import OpenAI6 from 'openai6';
import { describe, expect, it } from 'vitest';
import { observeOpenAI } from '../src/index.js';
import { outputText, response } from './fake-openai.js';
import { API_KEY, attr, json, obsEnding, setup } from './harness.js';

const t = setup();

const USAGE = {
  input_tokens: 30,
  input_tokens_details: { cached_tokens: 10 },
  output_tokens: 12,
  output_tokens_details: { reasoning_tokens: 7 },
  total_tokens: 42,
};
const USAGE_DETAILS = { input: 20, input_cache_read: 10, output: 5, output_reasoning: 7, total: 42 };

for (const [label, OpenAI] of [
  ['openai 7', OpenAI7],
  ['openai 6', OpenAI6],
] as const) {
  const client = () => observeOpenAI(new OpenAI({ apiKey: API_KEY, baseURL: t.fake.baseURL, maxRetries: 0 }));

  describe(`responses.create (${label})`, () => {
    it('a response: instructions first, the output text, function calls and reasoning as one message, usage split', async () => {
      const output = [
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Look it up.' }] },
        outputText('Checking.'),
        { type: 'function_call', id: 'fc_1', call_id: 'call_7', name: 'weather', arguments: '{"city":"Paris"}', status: 'completed' },
      ];
      t.fake.reply('/responses', { json: response(output, USAGE) });
      const { result, spans } = await t.traced(() =>
        client().responses.create({
          model: 'gpt-test',
          instructions: 'You are terse.',
          input: 'Weather in Paris?',
          temperature: 0.1,
          max_output_tokens: 100,
        }),
      );
      expect(result.output_text).toBe('Checking.');
      expect(spans).toHaveLength(1);
      const gen = spans[0]!;
      expect(gen.name).toBe('openai.responses.create');
      expect(attr(gen, 'type')).toBe('generation');
      expect(attr(gen, 'model.name')).toBe('gpt-test-2026');
      expect(json(gen, 'model.parameters')).toEqual({ temperature: 0.1, max_output_tokens: 100 });
      expect(json(gen, 'input')).toEqual([
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather in Paris?' },
      ]);
      expect(json(gen, 'output')).toEqual({
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [{ id: 'call_7', name: 'weather', args: { city: 'Paris' } }],
        reasoning: 'Look it up.',
      });
      expect(json(gen, 'usage_details')).toEqual(USAGE_DETAILS);
    });

    it('input items: messages, function calls and their outputs read as chat messages', async () => {
      t.fake.reply('/responses', { json: response([outputText('Sunny.')], USAGE) });
      const { spans } = await t.traced(() =>
        client().responses.create({
          model: 'gpt-test',
          input: [
            { role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] },
            { type: 'function_call', call_id: 'call_7', name: 'weather', arguments: '{"city":"Paris"}' },
            { type: 'function_call_output', call_id: 'call_7', output: 'sunny' },
          ],
        }),
      );
      expect(json(spans[0]!, 'input')).toEqual([
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'call_7', name: 'weather', args: { city: 'Paris' } }] },
        { role: 'tool', tool_call_id: 'call_7', content: 'sunny' },
      ]);
      expect(json(spans[0]!, 'output')).toEqual({ role: 'assistant', content: 'Sunny.' });
    });

    it('an incomplete response: WARNING with the reason', async () => {
      t.fake.reply('/responses', { json: response([outputText('Sun')], USAGE, 'incomplete') });
      const { spans } = await t.traced(() => client().responses.create({ model: 'gpt-test', input: 'Weather?' }));
      expect(attr(spans[0]!, 'level')).toBe('WARNING');
      expect(attr(spans[0]!, 'status_message')).toBe('incomplete: max_output_tokens');
    });

    it('a stream: deltas pass through, the completed event gives output and usage, completion_start_time at the first delta', async () => {
      const final = response([outputText('Hello there')], USAGE);
      t.fake.reply('/responses', {
        delayMs: 5,
        done: false,
        sse: [
          { type: 'response.created', sequence_number: 0, response: { ...final, status: 'in_progress', output: [] } },
          { type: 'response.output_text.delta', sequence_number: 1, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Hello ' },
          { type: 'response.output_text.delta', sequence_number: 2, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'there' },
          { type: 'response.completed', sequence_number: 3, response: final },
        ],
      });
      const { result, spans } = await t.traced(async () => {
        const stream = await client().responses.create({ model: 'gpt-test', input: 'Hi', stream: true });
        const types: string[] = [];
        for await (const event of stream) types.push(event.type);
        return types;
      });
      expect(result).toEqual(['response.created', 'response.output_text.delta', 'response.output_text.delta', 'response.completed']);
      expect(spans).toHaveLength(1);
      // toEqual: no level and no status message, it ended well (the first delta may come in the stream's last millisecond).
      expect(obsEnding(spans[0]!)).toEqual({
        output: { role: 'assistant', content: 'Hello there' },
        usage: USAGE_DETAILS,
        completionStart: expect.stringMatching(/^(within|at the end)$/),
      });
    });
  });

  describe(`embeddings.create (${label})`, () => {
    it('one embedding observation per call, with model, input and usage; the caller gets the vectors', async () => {
      t.fake.reply('/embeddings', {
        json: {
          object: 'list',
          model: 'text-embedding-test',
          data: [
            { object: 'embedding', index: 0, embedding: [0.1, 0.2] },
            { object: 'embedding', index: 1, embedding: [0.3, 0.4] },
          ],
          usage: { prompt_tokens: 6, total_tokens: 6 },
        },
      });
      const { result, spans } = await t.traced(() =>
        client().embeddings.create({ model: 'text-embedding-test', input: ['hello', 'world'], encoding_format: 'float' }),
      );
      expect(result.data.map((d) => d.embedding)).toEqual([
        [0.1, 0.2],
        [0.3, 0.4],
      ]);
      expect(spans).toHaveLength(1);
      const emb = spans[0]!;
      expect(emb.name).toBe('openai.embeddings.create');
      expect(attr(emb, 'type')).toBe('embedding');
      expect(attr(emb, 'model.name')).toBe('text-embedding-test');
      expect(json(emb, 'input')).toEqual(['hello', 'world']);
      expect(json(emb, 'usage_details')).toEqual({ input: 6, total: 6 });
      expect(attr(emb, 'output')).toBeUndefined();
    });
  });
}

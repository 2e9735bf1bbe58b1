/**
 * Streams through `observeAnthropic`, with the real `@anthropic-ai/sdk` 1.x and 0.50 against the
 * stand-in's server-sent events (every event type, `ping` and `signature_delta` included):
 * `messages.create({ stream: true })` stays the SDK's `Stream`; the `messages.stream()` helper
 * keeps its events, `finalMessage()` and `finalText()`; both are one generation with the answer
 * assembled from the deltas, usage from `message_start` and `message_delta`, and
 * `completion_start_time` at the first delta. A stream the caller leaves or aborts is WARNING
 * with the text so far; an `error` event or a broken connection is ERROR, and the caller gets
 * the SDK's error.
 */
import { describe, expect, it } from 'vitest';
import { observeAnthropic } from '../src/index.js';
import { events, message, text, thinking, toolUse, USAGE_DETAILS } from './fake-anthropic.js';
import { API_KEY, attr, json, SDKS, setup } from './harness.js';

const t = setup();

const PARAMS = { model: 'claude-test', max_tokens: 256, messages: [{ role: 'user' as const, content: 'Weather in Paris?' }] };
const ANSWER = message([thinking('Paris, so sunny.'), text('Sunny and 22 °C.'), toolUse('toolu_1', 'weather', { city: 'Paris' })]);
const OUTPUT = {
  role: 'assistant',
  content: 'Sunny and 22 °C.',
  tool_calls: [{ id: 'toolu_1', name: 'weather', args: { city: 'Paris' } }],
  reasoning: 'Paris, so sunny.',
};

for (const [label, Anthropic] of SDKS) {
  describe(`streams (${label})`, () => {
    const client = () => observeAnthropic(new Anthropic({ apiKey: API_KEY, baseURL: t.fake.baseURL, maxRetries: 0 }));

    it('create({ stream: true }): the SDK’s Stream; consumed, one generation with the assembled answer, usage and completion_start_time', async () => {
      t.fake.reply('/v1/messages', { sse: events(ANSWER), delayMs: 2 });
      const { result, spans } = await t.traced(async () => {
        const stream = await client().messages.create({ ...PARAMS, stream: true });
        expect(typeof stream.tee).toBe('function');
        expect(stream.controller).toBeInstanceOf(AbortController);
        const types: string[] = [];
        for await (const event of stream) types.push(event.type);
        return types;
      });
      expect(result).toEqual(events(ANSWER).map((e) => e['type']));
      expect(spans).toHaveLength(1);
      const gen = spans[0]!;
      expect(attr(gen, 'model.name')).toBe('claude-test-2026');
      expect(json(gen, 'model.parameters')).toEqual({ max_tokens: 256, stream: true });
      expect(json(gen, 'input')).toEqual([{ role: 'user', content: 'Weather in Paris?' }]);
      expect(json(gen, 'output')).toEqual(OUTPUT);
      expect(json(gen, 'usage_details')).toEqual(USAGE_DETAILS);
      expect(attr(gen, 'metadata.stop_reason')).toBe('end_turn');
      expect(attr(gen, 'level')).toBeUndefined();
      const first = new Date(String(attr(gen, 'completion_start_time'))).getTime();
      expect(first).toBeGreaterThan(gen.startTime.getTime());
      expect(first).toBeLessThan(gen.endTime.getTime());
    });

    it('the messages.stream() helper: its events, finalMessage() and finalText(); one generation', async () => {
      t.fake.reply('/v1/messages', { sse: events(ANSWER) });
      const { result, spans } = await t.traced(async () => {
        const stream = client().messages.stream(PARAMS);
        const texts: string[] = [];
        stream.on('text', (delta) => texts.push(delta));
        const final = await stream.finalMessage();
        return { texts: texts.join(''), final, finalText: await stream.finalText() };
      });
      expect(result.texts).toBe('Sunny and 22 °C.');
      expect(result.finalText).toBe('Sunny and 22 °C.');
      expect(result.final.usage.output_tokens).toBe(20);
      expect(spans).toHaveLength(1);
      expect(spans[0]!.name).toBe('anthropic.messages.create');
      expect(json(spans[0]!, 'output')).toEqual(OUTPUT);
      expect(json(spans[0]!, 'usage_details')).toEqual(USAGE_DETAILS);
      expect(attr(spans[0]!, 'completion_start_time')).toBeDefined();
    });

    it('tee(): both branches read, one generation', async () => {
      t.fake.reply('/v1/messages', { sse: events(ANSWER) });
      const { result, spans } = await t.traced(async () => {
        const [a, b] = (await client().messages.create({ ...PARAMS, stream: true })).tee();
        const count = async (s: AsyncIterable<unknown>) => {
          let n = 0;
          for await (const _ of s) n++;
          return n;
        };
        return Promise.all([count(a), count(b)]);
      });
      expect(result).toEqual([events(ANSWER).length, events(ANSWER).length]);
      expect(spans).toHaveLength(1);
      expect(json(spans[0]!, 'output')).toEqual(OUTPUT);
    });

    it('a stream the caller leaves: WARNING with the text so far, ended at once; input usage only', async () => {
      t.fake.reply('/v1/messages', { sse: events(message([text('Hello there, Paris.')])), delayMs: 30, hang: true });
      const { spans } = await t.traced(async () => {
        const stream = await client().messages.create({ ...PARAMS, stream: true });
        for await (const event of stream) if (event.type === 'content_block_delta') break;
      });
      expect(spans).toHaveLength(1);
      expect(attr(spans[0]!, 'level')).toBe('WARNING');
      expect(attr(spans[0]!, 'status_message')).toMatch(/stopped reading/);
      expect(json(spans[0]!, 'output')).toEqual({ role: 'assistant', content: 'Hello ther' });
      // message_start's output_tokens is a placeholder: not recorded before message_delta.
      expect(json(spans[0]!, 'usage_details')).toEqual({ input: 12, input_cache_read: 30, input_cache_write: 8, total: 50 });
    });

    it('the helper aborted (stream.abort()): WARNING; the caller sees the SDK’s abort', async () => {
      t.fake.reply('/v1/messages', { sse: events(message([text('Hello there, Paris.')])), delayMs: 30, hang: true });
      const { result, spans } = await t.traced(async () => {
        const stream = client().messages.stream(PARAMS);
        stream.on('text', () => stream.abort());
        return stream.finalMessage().catch((e: unknown) => e);
      });
      expect(result).toBeInstanceOf(Anthropic.APIUserAbortError);
      expect(spans).toHaveLength(1);
      expect(attr(spans[0]!, 'level')).toBe('WARNING');
      expect(attr(spans[0]!, 'status_message')).toMatch(/aborted/);
      expect(json(spans[0]!, 'output')).toEqual({ role: 'assistant', content: 'Hello ther' });
    });

    it('an error event mid-stream: ERROR with its message and the text so far; the caller gets the SDK’s error', async () => {
      const sse = events(message([text('Hello there, Paris.')])).slice(0, 4);
      sse.push({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
      t.fake.reply('/v1/messages', { sse });
      const { result, spans } = await t.traced(async () => {
        const stream = await client().messages.create({ ...PARAMS, stream: true });
        try {
          for await (const _ of stream);
          return 'completed';
        } catch (err) {
          return err;
        }
      });
      expect(result).toBeInstanceOf(Anthropic.APIError);
      expect(spans).toHaveLength(1);
      expect(attr(spans[0]!, 'level')).toBe('ERROR');
      expect(attr(spans[0]!, 'status_message')).toMatch(/Overloaded/);
      expect(json(spans[0]!, 'output')).toEqual({ role: 'assistant', content: 'Hello ther' });
    });

    it('a broken connection: ERROR; the caller sees the SDK’s error', async () => {
      t.fake.reply('/v1/messages', { sse: events(message([text('Hello there, Paris.')])).slice(0, 4), breakOff: true });
      const { result, spans } = await t.traced(async () => {
        const stream = await client().messages.create({ ...PARAMS, stream: true });
        try {
          for await (const _ of stream);
          return 'completed';
        } catch (err) {
          return err;
        }
      });
      expect(result).toBeInstanceOf(Error);
      expect(spans).toHaveLength(1);
      expect(attr(spans[0]!, 'level')).toBe('ERROR');
      expect(attr(spans[0]!, 'status_message')).toBe((result as Error).message);
    });
  });
}

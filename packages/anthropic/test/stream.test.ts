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
import { API_KEY, attr, json, obsEnding, readStream, SDKS, setup } from './harness.js';

const t = setup();

const PARAMS = { model: 'claude-test', max_tokens: 256, messages: [{ role: 'user' as const, content: 'Weather in Paris?' }] };
const ANSWER = message([thinking('Paris, so sunny.'), text('Sunny and 22 °C.'), toolUse('toolu_1', 'weather', { city: 'Paris' })]);
const OUTPUT = {
  role: 'assistant',
  content: 'Sunny and 22 °C.',
  tool_calls: [{ id: 'toolu_1', name: 'weather', args: { city: 'Paris' } }],
  reasoning: 'Paris, so sunny.',
};
/** The answer the early endings cut: its first text delta is `Hello ther`. */
const HELLO = events(message([text('Hello there, Paris.')]));
const PARTIAL = { role: 'assistant', content: 'Hello ther' };
const OVERLOADED = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
/** message_start's usage: its output_tokens is a placeholder, not recorded before message_delta. */
const INPUT_USAGE = { input: 12, input_cache_read: 30, input_cache_write: 8, total: 50 };

for (const [label, Anthropic] of SDKS) {
  describe(`streams (${label})`, () => {
    const client = () => observeAnthropic(new Anthropic({ apiKey: API_KEY, baseURL: t.fake.baseURL, maxRetries: 0 }));
    const stream = () => client().messages.create({ ...PARAMS, stream: true });

    it('create({ stream: true }): the SDK’s Stream; consumed, one generation with the assembled answer, usage and completion_start_time', async () => {
      t.fake.reply('/v1/messages', { sse: events(ANSWER), delayMs: 2 });
      const { result, spans } = await t.traced(async () => {
        const s = await stream();
        expect(typeof s.tee).toBe('function');
        expect(s.controller).toBeInstanceOf(AbortController);
        const types: string[] = [];
        for await (const event of s) types.push(event.type);
        return types;
      });
      expect(result).toEqual(events(ANSWER).map((e) => e['type']));
      expect(spans).toHaveLength(1);
      const gen = spans[0]!;
      expect(attr(gen, 'model.name')).toBe('claude-test-2026');
      expect(json(gen, 'model.parameters')).toEqual({ max_tokens: 256, stream: true });
      expect(json(gen, 'input')).toEqual([{ role: 'user', content: 'Weather in Paris?' }]);
      expect(attr(gen, 'metadata.stop_reason')).toBe('end_turn');
      // toEqual: no level and no status message, it ended well.
      expect(obsEnding(gen)).toEqual({ output: OUTPUT, usage: USAGE_DETAILS, completionStart: 'within' });
    });

    it('the messages.stream() helper: its events, finalMessage() and finalText(); one generation', async () => {
      t.fake.reply('/v1/messages', { sse: events(ANSWER) });
      const { result, spans } = await t.traced(async () => {
        const s = client().messages.stream(PARAMS);
        const texts: string[] = [];
        s.on('text', (delta) => texts.push(delta));
        const final = await s.finalMessage();
        return { texts: texts.join(''), final, finalText: await s.finalText() };
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
        const [a, b] = (await stream()).tee();
        return Promise.all([readStream(a), readStream(b)]);
      });
      expect(result.map((read) => read.items.length)).toEqual([events(ANSWER).length, events(ANSWER).length]);
      expect(spans).toHaveLength(1);
      expect(json(spans[0]!, 'output')).toEqual(OUTPUT);
    });

    it('a stream the caller leaves: WARNING with the text so far, ended at once; input usage only', async () => {
      t.fake.reply('/v1/messages', { sse: HELLO, delayMs: 30, hang: true });
      const { spans } = await t.traced(async () =>
        readStream(await stream(), { leaveAfter: (event) => event.type === 'content_block_delta' }),
      );
      expect(spans).toHaveLength(1);
      expect(obsEnding(spans[0]!)).toMatchObject({ level: 'WARNING', output: PARTIAL, usage: INPUT_USAGE });
      expect(attr(spans[0]!, 'status_message')).toMatch(/stopped reading/);
    });

    it('the helper aborted (stream.abort()): WARNING; the caller sees the SDK’s abort', async () => {
      t.fake.reply('/v1/messages', { sse: HELLO, delayMs: 30, hang: true });
      const { result, spans } = await t.traced(async () => {
        const s = client().messages.stream(PARAMS);
        s.on('text', () => s.abort());
        return s.finalMessage().catch((e: unknown) => e);
      });
      expect(result).toBeInstanceOf(Anthropic.APIUserAbortError);
      expect(spans).toHaveLength(1);
      expect(obsEnding(spans[0]!)).toMatchObject({ level: 'WARNING', statusMessage: expect.stringMatching(/aborted/), output: PARTIAL });
    });

    // Both cut the answer after its first text delta: the caller gets the SDK's error, the generation its message.
    it.each([
      {
        cut: 'an error event mid-stream',
        reply: { sse: [...HELLO.slice(0, 4), OVERLOADED] },
        error: Anthropic.APIError,
        says: /Overloaded/,
      },
      { cut: 'a broken connection', reply: { sse: HELLO.slice(0, 4), breakOff: true }, error: Error, says: /\S/ },
    ])('$cut: ERROR with the SDK error’s message and the text so far', async ({ reply, error, says }) => {
      t.fake.reply('/v1/messages', reply);
      const { result, spans } = await t.traced(async () => readStream(await stream()));
      expect(result.error).toBeInstanceOf(error);
      expect(spans).toHaveLength(1);
      expect(obsEnding(spans[0]!)).toMatchObject({ level: 'ERROR', statusMessage: (result.error as Error).message, output: PARTIAL });
      expect(attr(spans[0]!, 'status_message')).toMatch(says);
    });
  });
}

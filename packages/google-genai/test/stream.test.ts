/**
 * Streams through `observeGoogleGenAI`, with the real `@google/genai` 3.x and 1.0 against the
 * stand-in's server-sent events (`?alt=sse`): `generateContentStream` hands back an async
 * generator of the SDK's chunks; one generation with the answer assembled from them, usage from
 * the last chunk, and `completion_start_time` at the first. A stream the caller leaves, or aborts
 * with `config.abortSignal`, is WARNING with the text so far; a broken connection ERROR, and the
 * caller gets the SDK's error.
 */
import { describe, expect, it } from 'vitest';
import { observeGoogleGenAI } from '../src/index.js';
import { chunks, MODEL, response, USAGE_DETAILS } from './fake-gemini.js';
import { API_KEY, attr, json, obsEnding, readStream, SDKS, setup } from './harness.js';

const t = setup();

const ANSWER = response([
  { text: 'Paris, so sunny.', thought: true },
  { text: 'Sunny and 22 °C.' },
  { functionCall: { name: 'weather', args: { city: 'Paris' } } },
]);
const OUTPUT = {
  role: 'assistant',
  content: 'Sunny and 22 °C.',
  tool_calls: [{ name: 'weather', args: { city: 'Paris' } }],
  reasoning: 'Paris, so sunny.',
};

async function texts(stream: AsyncIterable<{ candidates?: Array<{ content?: { parts?: Array<{ text?: string; thought?: boolean }> } }> }>) {
  let out = '';
  for await (const chunk of stream) for (const p of chunk.candidates?.[0]?.content?.parts ?? []) if (p.text && !p.thought) out += p.text;
  return out;
}

/** The answer the early endings cut: its first chunk is `Hello ther`. */
const HELLO = chunks(response([{ text: 'Hello there, Paris.' }]));
const PARTIAL = { role: 'assistant', content: 'Hello ther' };

for (const [label, GoogleGenAI] of SDKS) {
  describe(`streams (${label})`, () => {
    const client = () => observeGoogleGenAI(new GoogleGenAI({ apiKey: API_KEY, httpOptions: { baseUrl: t.fake.baseUrl } }));

    it('generateContentStream read to the end: one generation with the assembled answer, usage and completion_start_time', async () => {
      t.fake.reply('streamGenerateContent', { sse: chunks(ANSWER), delayMs: 2 });
      const { result, spans } = await t.traced(async () =>
        texts(await client().models.generateContentStream({ model: MODEL, contents: 'Weather in Paris?', config: { temperature: 0.5 } })),
      );
      expect(result).toBe('Sunny and 22 °C.');
      expect(t.fake.calls[0]!.query).toBe('alt=sse');
      expect(spans).toHaveLength(1);
      const gen = spans[0]!;
      expect(gen.name).toBe('google-genai.generate_content');
      expect(attr(gen, 'model.name')).toBe('gemini-test-001');
      expect(json(gen, 'model.parameters')).toEqual({ temperature: 0.5, stream: true });
      expect(json(gen, 'input')).toEqual([{ role: 'user', content: 'Weather in Paris?' }]);
      expect(attr(gen, 'metadata.finish_reason')).toBe('STOP');
      // toEqual: no level and no status message, it ended well.
      expect(obsEnding(gen)).toEqual({ output: OUTPUT, usage: USAGE_DETAILS, completionStart: 'within' });
    });

    it('a stream the caller leaves: WARNING with the text so far, ended at once', async () => {
      t.fake.reply('streamGenerateContent', { sse: HELLO, delayMs: 30, hang: true });
      const { spans } = await t.traced(async () =>
        readStream(await client().models.generateContentStream({ model: MODEL, contents: 'Hi' }), { leaveAfter: () => true }),
      );
      expect(spans).toHaveLength(1);
      expect(obsEnding(spans[0]!)).toMatchObject({ level: 'WARNING', output: PARTIAL, usage: undefined });
      expect(attr(spans[0]!, 'status_message')).toMatch(/stopped reading/);
    });

    it('a stream aborted with config.abortSignal: WARNING with the text so far; the caller sees the abort', async () => {
      t.fake.reply('streamGenerateContent', { sse: HELLO, delayMs: 30, hang: true });
      const controller = new AbortController();
      const { result, spans } = await t.traced(async () => {
        const stream = await client().models.generateContentStream({
          model: MODEL,
          contents: 'Hi',
          config: { abortSignal: controller.signal },
        });
        return readStream(stream, { each: () => controller.abort() });
      });
      expect((result.error as Error).name).toBe('AbortError');
      expect(spans).toHaveLength(1);
      expect(obsEnding(spans[0]!)).toMatchObject({ level: 'WARNING', statusMessage: expect.stringMatching(/^aborted/), output: PARTIAL });
    });

    it('a broken connection: ERROR with the text so far; the caller gets the SDK’s error', async () => {
      t.fake.reply('streamGenerateContent', { sse: HELLO.slice(0, 1), breakOff: true });
      const { result, spans } = await t.traced(async () =>
        readStream(await client().models.generateContentStream({ model: MODEL, contents: 'Hi' })),
      );
      expect(result.error).toBeInstanceOf(Error);
      expect(spans).toHaveLength(1);
      expect(obsEnding(spans[0]!)).toMatchObject({ level: 'ERROR', statusMessage: (result.error as Error).message, output: PARTIAL });
    });
  });
}

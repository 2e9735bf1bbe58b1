/**
 * Chats through `observeGoogleGenAI`, with the real `@google/genai` 3.x and 1.0 against the
 * stand-in: `chats.create()` returns the SDK's chat, and each `sendMessage` / `sendMessageStream`
 * turn is exactly one generation (the SDK's own `generateContent` inside it is not a second one)
 * whose input is the chat's system instruction, its history so far and the new message, as the
 * SDK sends them.
 */
import { describe, expect, it } from 'vitest';
import { observeGoogleGenAI } from '../src/index.js';
import { chunks, MODEL, response, USAGE_DETAILS } from './fake-gemini.js';
import { API_KEY, attr, json, SDKS, setup } from './harness.js';

const t = setup();

for (const [label, GoogleGenAI] of SDKS) {
  describe(`chats (${label})`, () => {
    const client = () => observeGoogleGenAI(new GoogleGenAI({ apiKey: API_KEY, httpOptions: { baseUrl: t.fake.baseUrl } }));

    it('sendMessage then sendMessageStream: one generation per turn, each with the history before it', async () => {
      t.fake.reply('generateContent', { json: response([{ text: 'Sunny.' }]) });
      t.fake.reply('streamGenerateContent', { sse: chunks(response([{ text: 'Rainy, 12 °C.' }])) });
      const { result, spans } = await t.traced(async () => {
        const chat = client().chats.create({
          model: MODEL,
          config: { systemInstruction: 'You are terse.', temperature: 0.1 },
          history: [
            { role: 'user', parts: [{ text: 'Hello' }] },
            { role: 'model', parts: [{ text: 'Hi!' }] },
          ],
        });
        const first = await chat.sendMessage({ message: 'Weather in Paris?' });
        let second = '';
        for await (const chunk of await chat.sendMessageStream({ message: [{ text: 'And Oslo?' }] })) second += chunk.text ?? '';
        return { first: first.text, second };
      });
      expect(result).toEqual({ first: 'Sunny.', second: 'Rainy, 12 °C.' });
      // The SDK sent the history it keeps; obs recorded the same.
      expect((t.fake.calls[1]!.body['contents'] as unknown[]).length).toBe(5);
      expect(spans.map((s) => s.name)).toEqual(['google-genai.chat.send_message', 'google-genai.chat.send_message']);
      const [first, second] = spans as [(typeof spans)[0], (typeof spans)[0]];
      const history = [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hi!' },
        { role: 'user', content: 'Weather in Paris?' },
      ];
      expect(json(first, 'input')).toEqual(history);
      expect(json(first, 'output')).toEqual({ role: 'assistant', content: 'Sunny.' });
      expect(json(first, 'model.parameters')).toEqual({ temperature: 0.1 });
      expect(json(first, 'usage_details')).toEqual(USAGE_DETAILS);
      expect(json(second, 'input')).toEqual([...history, { role: 'assistant', content: 'Sunny.' }, { role: 'user', content: 'And Oslo?' }]);
      expect(json(second, 'output')).toEqual({ role: 'assistant', content: 'Rainy, 12 °C.' });
      expect(json(second, 'model.parameters')).toEqual({ temperature: 0.1, stream: true });
      expect(attr(second, 'completion_start_time')).toBeDefined();
      for (const s of spans) expect(attr(s, 'model.name')).toBe('gemini-test-001');
    });

    it('a turn that fails: ERROR with the SDK’s error; (3.x) the chat goes on', async () => {
      t.fake.reply('generateContent', [
        { status: 500, json: { error: { code: 500, message: 'Internal', status: 'INTERNAL' } } },
        { json: response([{ text: 'Back.' }]) },
      ]);
      const sdk3 = label === '@google/genai 3.x';
      const { result, spans } = await t.traced(async () => {
        const chat = client().chats.create({ model: MODEL });
        const failed = await chat.sendMessage({ message: 'Hi' }).catch((e: unknown) => e);
        // 1.0 keeps the failed turn's promise: every later turn rejects with it.
        return { failed, next: sdk3 ? (await chat.sendMessage({ message: 'Again' })).text : undefined };
      });
      expect((result.failed as Error).message).toContain('Internal');
      expect(spans.map((s) => attr(s, 'level'))).toEqual(sdk3 ? ['ERROR', undefined] : ['ERROR']);
      expect(attr(spans[0]!, 'status_message')).toBe((result.failed as Error).message);
      if (sdk3) expect(result.next).toBe('Back.');
    });
  });
}

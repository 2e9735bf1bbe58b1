/**
 * `models.generateContent` and `models.embedContent` through `observeGoogleGenAI`, with the real
 * `@google/genai` 3.x and 1.0 against the stand-in Gemini API: one generation (or embedding) per
 * call under the active observation, and no other span (the SDK records none of its own), read
 * back from the obs server field by field (model, parameters, system instruction and contents in
 * obs's shape with function calls and responses, the answer with tool calls and thoughts, usage
 * in disjoint buckets, finish reason); a blocked prompt WARNING; errors ERROR with the SDK's
 * error reaching the caller unchanged; the methods obs does not trace left alone.
 */
import { describe, expect, it } from 'vitest';
import { observeGoogleGenAI } from '../src/index.js';
import { apiError, MODEL, response, USAGE, USAGE_DETAILS } from './fake-gemini.js';
import { API_KEY, attr, json, SDKS, setup } from './harness.js';

const t = setup();

const TOOLS = [
  { functionDeclarations: [{ name: 'weather', description: 'Weather in a city', parameters: { type: 'OBJECT', properties: {} } }] },
];
/** The sampling parameters of `config`: recorded as sent (the thinking budget and tool mode are flattened). */
const SAMPLING = { temperature: 0.2, topP: 0.9, topK: 40, maxOutputTokens: 256, stopSequences: ['END'], seed: 7 };

for (const [label, GoogleGenAI] of SDKS) {
  describe(`models (${label})`, () => {
    const client = () => observeGoogleGenAI(new GoogleGenAI({ apiKey: API_KEY, httpOptions: { baseUrl: t.fake.baseUrl } }));

    it('generateContent: one generation with model, parameters, system and contents, the answer, usage; the caller gets the SDK’s response', async () => {
      t.fake.reply('generateContent', {
        json: response([
          { text: 'Paris, so sunny.', thought: true },
          { text: 'Sunny, ' },
          { text: '22 °C.' },
          { functionCall: { name: 'weather', args: { city: 'Oslo' } } },
        ]),
      });
      const { result, spans } = await t.traced(() =>
        client().models.generateContent({
          model: MODEL,
          contents: [
            { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
            {
              role: 'model',
              parts: [
                { text: 'Call the tool.', thought: true },
                { functionCall: { id: 'call_1', name: 'weather', args: { city: 'Paris' } } },
              ],
            },
            {
              role: 'user',
              parts: [
                { functionResponse: { id: 'call_1', name: 'weather', response: { forecast: 'sunny, 22 °C' } } },
                { text: 'And Oslo?' },
              ],
            },
          ],
          config: {
            systemInstruction: 'You are terse.',
            ...SAMPLING,
            thinkingConfig: { thinkingBudget: 1024 },
            toolConfig: { functionCallingConfig: { mode: 'AUTO' as never } },
            tools: TOOLS as never,
          },
        }),
      );
      expect(result.candidates?.[0]?.content?.parts?.map((p) => p.text ?? p.functionCall?.name)).toEqual([
        'Paris, so sunny.',
        'Sunny, ',
        '22 °C.',
        'weather',
      ]);
      expect(t.fake.calls).toHaveLength(1);
      expect(t.fake.calls[0]!.path).toMatch(/^\/v1(beta)?\/models\/gemini-test:generateContent$/);
      expect(spans).toHaveLength(1);
      const gen = spans[0]!;
      expect(gen.name).toBe('google-genai.generate_content');
      expect(attr(gen, 'type')).toBe('generation');
      expect(attr(gen, 'model.name')).toBe('gemini-test-001');
      expect(json(gen, 'model.parameters')).toEqual({ ...SAMPLING, thinkingBudget: 1024, tool_choice: 'AUTO' });
      expect(json(gen, 'input')).toEqual([
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'call_1', name: 'weather', args: { city: 'Paris' } }],
          reasoning: 'Call the tool.',
        },
        { role: 'tool', tool_call_id: 'call_1', name: 'weather', content: { forecast: 'sunny, 22 °C' } },
        { role: 'user', content: 'And Oslo?' },
      ]);
      expect(json(gen, 'output')).toEqual({
        role: 'assistant',
        content: 'Sunny, 22 °C.',
        tool_calls: [{ name: 'weather', args: { city: 'Oslo' } }],
        reasoning: 'Paris, so sunny.',
      });
      expect(json(gen, 'usage_details')).toEqual(USAGE_DETAILS);
      expect(attr(gen, 'metadata.finish_reason')).toBe('STOP');
      expect(JSON.parse(String(attr(gen, 'metadata.tools')))).toEqual(TOOLS);
      expect(attr(gen, 'completion_start_time')).toBeUndefined();
      expect(attr(gen, 'level')).toBeUndefined();
    });

    it('contents as a string, a system instruction as parts, a JSON schema as metadata', async () => {
      t.fake.reply('generateContent', {
        json: response([{ text: '{"city":"Paris"}' }], { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 }),
      });
      const schema = { type: 'object', properties: { city: { type: 'string' } } };
      const { spans } = await t.traced(() =>
        client().models.generateContent({
          model: MODEL,
          contents: 'City?',
          config: {
            systemInstruction: { parts: [{ text: 'Answer in JSON.' }, { text: 'Be brief.' }] },
            responseMimeType: 'application/json',
            responseJsonSchema: schema,
          },
        }),
      );
      expect(json(spans[0]!, 'input')).toEqual([
        { role: 'system', content: 'Answer in JSON.\nBe brief.' },
        { role: 'user', content: 'City?' },
      ]);
      expect(json(spans[0]!, 'model.parameters')).toEqual({ responseMimeType: 'application/json' });
      expect(JSON.parse(String(attr(spans[0]!, 'metadata.response_schema')))).toEqual(schema);
      expect(json(spans[0]!, 'usage_details')).toEqual({ input: 5, output: 3, total: 8 });
    });

    it('a blocked prompt: WARNING with the block reason', async () => {
      t.fake.reply('generateContent', {
        json: {
          promptFeedback: { blockReason: 'SAFETY' },
          usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 },
          modelVersion: 'gemini-test-001',
        },
      });
      const { spans } = await t.traced(() => client().models.generateContent({ model: MODEL, contents: 'Something unsafe' }));
      expect(attr(spans[0]!, 'level')).toBe('WARNING');
      expect(attr(spans[0]!, 'status_message')).toBe('the prompt was blocked: SAFETY');
      expect(json(spans[0]!, 'usage_details')).toEqual({ input: 4, total: 4 });
    });

    it('an API error: ERROR with the message; the caller gets the SDK’s own error', async () => {
      t.fake.reply('generateContent', { status: 429, json: apiError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded') });
      const { result, spans } = await t.traced(() =>
        client()
          .models.generateContent({ model: MODEL, contents: 'Hi' })
          .catch((e: unknown) => e),
      );
      expect((result as Error).constructor.name).toBe(label === '@google/genai 3.x' ? 'ApiError' : 'ClientError');
      expect((result as Error).message).toContain('Quota exceeded');
      expect(spans).toHaveLength(1);
      expect(attr(spans[0]!, 'level')).toBe('ERROR');
      expect(attr(spans[0]!, 'status_message')).toBe((result as Error).message);
      expect(attr(spans[0]!, 'model.name')).toBe(MODEL);
    });

    it('embedContent: one embedding with the texts and parameters (through :batchEmbedContents), no vectors', async () => {
      t.fake.reply(
        'batchEmbedContents',
        {
          json: {
            embeddings: [{ values: [0.1, 0.2] }, { values: [0.3, 0.4] }],
            usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 },
          },
        },
        'gemini-embedding-001',
      );
      const { result, spans } = await t.traced(() =>
        client().models.embedContent({
          model: 'gemini-embedding-001',
          contents: ['What is your name?', 'What is your favourite colour?'],
          config: { outputDimensionality: 2, taskType: 'RETRIEVAL_QUERY' },
        }),
      );
      expect(result.embeddings?.map((e) => e.values)).toEqual([
        [0.1, 0.2],
        [0.3, 0.4],
      ]);
      expect(t.fake.calls.map((c) => c.path.split(':')[1])).toEqual(['batchEmbedContents']);
      expect(spans).toHaveLength(1);
      const emb = spans[0]!;
      expect(emb.name).toBe('google-genai.embed_content');
      expect(attr(emb, 'type')).toBe('embedding');
      expect(attr(emb, 'model.name')).toBe('gemini-embedding-001');
      expect(json(emb, 'input')).toEqual(['What is your name?', 'What is your favourite colour?']);
      expect(json(emb, 'model.parameters')).toEqual({ outputDimensionality: 2, taskType: 'RETRIEVAL_QUERY' });
      // 1.0 does not pass the API's usage on.
      if (label === '@google/genai 3.x') expect(json(emb, 'usage_details')).toEqual({ input: 9, total: 9 });
      expect(attr(emb, 'output')).toBeUndefined();
    });

    it('options name and metadata; observing twice: one generation per call; the caller’s client untraced; countTokens left alone', async () => {
      t.fake.reply('generateContent', { json: response([{ text: 'Hi.' }], USAGE) });
      t.fake.reply('countTokens', { json: { totalTokens: 3 } });
      const original = new GoogleGenAI({ apiKey: API_KEY, httpOptions: { baseUrl: t.fake.baseUrl } });
      const ai = observeGoogleGenAI(observeGoogleGenAI(original), { name: 'greeter', metadata: { feature: 'hello' } });
      expect(ai).toBeInstanceOf(GoogleGenAI);
      const { result, spans } = await t.traced(async () => {
        await ai.models.generateContent({ model: MODEL, contents: 'Hi' });
        await original.models.generateContent({ model: MODEL, contents: 'Hi' });
        return ai.models.countTokens({ model: MODEL, contents: 'Hi' });
      });
      expect(result.totalTokens).toBe(3);
      expect(t.fake.calls).toHaveLength(3);
      expect(spans.map((s) => s.name)).toEqual(['greeter']);
      expect(attr(spans[0]!, 'metadata.feature')).toBe('hello');
    });
  });
}

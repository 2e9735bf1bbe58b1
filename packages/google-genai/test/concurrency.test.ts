/**
 * Ten concurrent calls through one observed client (`@google/genai` 3.x), five JSON and five
 * streamed with their chunks interleaved, each under its own parent observation: on the server,
 * each parent has exactly one generation, whose input and output are that call's and no other's.
 */
import { GoogleGenAI } from '@google/genai';
import { startActiveObservation } from '@obs/core';
import { describe, expect, it } from 'vitest';
import { observeGoogleGenAI } from '../src/index.js';
import { chunks, MODEL, response } from './fake-gemini.js';
import { API_KEY, attr, json, setup } from './harness.js';

const t = setup();

describe('concurrent calls', () => {
  it('10 calls at once, each under its own parent: one generation per parent with its own input and output', async () => {
    const answer = (body: Record<string, unknown>) => {
      const question = String((body['contents'] as Array<{ parts: Array<{ text: string }> }>)[0]!.parts[0]!.text);
      return response([{ text: `answer to ${question}` }]);
    };
    t.fake.reply('generateContent', (call) => ({ json: answer(call.body) }));
    t.fake.reply('streamGenerateContent', (call) => ({ sse: chunks(answer(call.body)), delayMs: 3 }));
    const ai = observeGoogleGenAI(new GoogleGenAI({ apiKey: API_KEY, httpOptions: { baseUrl: t.fake.baseUrl } }));
    const parents: Array<{ traceId: string; id: string }> = [];
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        startActiveObservation(`parent-${i}`, async (obs) => {
          parents[i] = { traceId: obs.traceId, id: obs.id };
          const params = { model: MODEL, contents: `question ${i}` };
          if (i % 2 === 0) return (await ai.models.generateContent(params)).text;
          let out = '';
          for await (const chunk of await ai.models.generateContentStream(params)) out += chunk.text ?? '';
          return out;
        }),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 10 }, (_, i) => `answer to question ${i}`));
    await t.local.handle.flush();
    for (const [i, parent] of parents.entries()) {
      const spans = t.local.server.spansByTrace(parent.traceId);
      expect(spans.map((s) => s.name).sort(), `parent ${i}`).toEqual(['google-genai.generate_content', `parent-${i}`]);
      const gen = spans.find((s) => s.name === 'google-genai.generate_content')!;
      expect(gen.parentSpanId).toBe(parent.id);
      expect(attr(gen, 'type')).toBe('generation');
      expect(json(gen, 'input')).toEqual([{ role: 'user', content: `question ${i}` }]);
      expect(json(gen, 'output')).toEqual({ role: 'assistant', content: `answer to question ${i}` });
      if (i % 2 === 1) expect(attr(gen, 'completion_start_time')).toBeDefined();
    }
  });
});

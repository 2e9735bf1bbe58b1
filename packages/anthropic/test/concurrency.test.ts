/**
 * Ten concurrent calls through one observed client (`@anthropic-ai/sdk` 1.x), five JSON and five
 * streamed with their events interleaved, each under its own parent observation: on the server,
 * each parent has exactly one generation, whose input and output are that call's and no other's.
 */
import Anthropic from '@anthropic-ai/sdk';
import { startActiveObservation } from '@obs/core';
import { describe, expect, it } from 'vitest';
import { observeAnthropic } from '../src/index.js';
import { events, message, text } from './fake-anthropic.js';
import { API_KEY, attr, json, setup } from './harness.js';

const t = setup();

describe('concurrent calls', () => {
  it('10 calls at once, each under its own parent: one generation per parent with its own input and output', async () => {
    t.fake.reply('/v1/messages', (body) => {
      const question = String((body['messages'] as Array<{ content: string }>)[0]!.content);
      const answer = message([text(`answer to ${question}`)]);
      return body['stream'] ? { sse: events(answer), delayMs: 3 } : { json: answer };
    });
    const client = observeAnthropic(new Anthropic({ apiKey: API_KEY, baseURL: t.fake.baseURL, maxRetries: 0 }));
    const parents: Array<{ traceId: string; id: string }> = [];
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        startActiveObservation(`parent-${i}`, async (obs) => {
          parents[i] = { traceId: obs.traceId, id: obs.id };
          const params = { model: 'claude-test', max_tokens: 32, messages: [{ role: 'user' as const, content: `question ${i}` }] };
          if (i % 2 === 0) return ((await client.messages.create(params)).content[0] as { text: string }).text;
          let out = '';
          for await (const e of await client.messages.create({ ...params, stream: true })) {
            if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') out += e.delta.text;
          }
          return out;
        }),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 10 }, (_, i) => `answer to question ${i}`));
    await t.local.handle.flush();
    for (const [i, parent] of parents.entries()) {
      const spans = t.local.server.spansByTrace(parent.traceId);
      expect(spans.map((s) => s.name).sort(), `parent ${i}`).toEqual(['anthropic.messages.create', `parent-${i}`]);
      const gen = spans.find((s) => s.name === 'anthropic.messages.create')!;
      expect(gen.parentSpanId).toBe(parent.id);
      expect(attr(gen, 'type')).toBe('generation');
      expect(json(gen, 'input')).toEqual([{ role: 'user', content: `question ${i}` }]);
      expect(json(gen, 'output')).toEqual({ role: 'assistant', content: `answer to question ${i}` });
      if (i % 2 === 1) expect(attr(gen, 'completion_start_time')).toBeDefined();
    }
  });
});

/**
 * Ten concurrent calls through one observed client (SDK 3.x, one HTTP/2 session), five Converse
 * and five ConverseStream with their events interleaved, each under its own parent observation: on
 * the server, each parent has exactly one generation, whose input and output are that call's and
 * no other's.
 */
import * as sdk from '@aws-sdk/client-bedrock-runtime';
import { startActiveObservation } from '@obs/core';
import { describe, expect, it } from 'vitest';
import { observeBedrock } from '../src/index.js';
import { converseEvents, converseOutput, MODEL } from './fake-bedrock.js';
import { attr, clientOf, json, setup } from './harness.js';

const t = setup();

describe('concurrent calls', () => {
  it('10 calls at once, each under its own parent: one generation per parent with its own input and output', async () => {
    const answer = (body: Record<string, unknown>) => {
      const question = (body['messages'] as Array<{ content: Array<{ text: string }> }>)[0]!.content[0]!.text;
      return converseOutput([{ text: `answer to ${question}` }]);
    };
    t.fake.reply('converse', (call) => ({ json: answer(call.body) }));
    t.fake.reply('converse-stream', (call) => ({ events: converseEvents(answer(call.body)), delayMs: 3 }));
    const client = clientOf(sdk, t.fake.url);
    const bedrock = observeBedrock(client);
    const parents: Array<{ traceId: string; id: string }> = [];
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        startActiveObservation(`parent-${i}`, async (obs) => {
          parents[i] = { traceId: obs.traceId, id: obs.id };
          const input = { modelId: MODEL, messages: [{ role: 'user' as const, content: [{ text: `question ${i}` }] }] };
          if (i % 2 === 0) return (await bedrock.send(new sdk.ConverseCommand(input))).output?.message?.content?.[0]?.text;
          let out = '';
          for await (const e of (await bedrock.send(new sdk.ConverseStreamCommand(input))).stream!)
            out += e.contentBlockDelta?.delta?.text ?? '';
          return out;
        }),
      ),
    );
    client.destroy();
    expect(answers).toEqual(Array.from({ length: 10 }, (_, i) => `answer to question ${i}`));
    expect(new Set(t.fake.calls.map((c) => c.httpVersion))).toEqual(new Set(['2.0']));
    await t.local.handle.flush();
    for (const [i, parent] of parents.entries()) {
      const spans = t.local.server.spansByTrace(parent.traceId);
      const name = i % 2 === 0 ? 'bedrock.converse' : 'bedrock.converse_stream';
      expect(spans.map((s) => s.name).sort(), `parent ${i}`).toEqual([name, `parent-${i}`]);
      const gen = spans.find((s) => s.name === name)!;
      expect(gen.parentSpanId).toBe(parent.id);
      expect(attr(gen, 'type')).toBe('generation');
      expect(json(gen, 'input')).toEqual([{ role: 'user', content: `question ${i}` }]);
      expect(json(gen, 'output')).toEqual({ role: 'assistant', content: `answer to question ${i}` });
      if (i % 2 === 1) expect(attr(gen, 'completion_start_time')).toBeDefined();
    }
  });
});

/**
 * `InvokeModelCommand` and `InvokeModelWithResponseStreamCommand` through `observeBedrock`, with
 * the real SDK 3.x (HTTP/2) and 3.588 (HTTP/1.1) against the stand-in: an Anthropic body is read
 * as `@obs/anthropic` reads the Messages API (system and messages, parameters, the answer, usage
 * in disjoint buckets, a base64 image uploaded as media), its stream's chunks (Anthropic events as
 * bytes in event-stream messages) assembled; an embedding model's call is an embedding; another
 * model's JSON is recorded as it is. The caller gets the SDK's output, its body unread by obs.
 */
import { longestBase64Run, mediaReferencesIn, noisePng } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { observeBedrock } from '../src/index.js';
import { anthropicChunks, anthropicMessage, MODEL } from './fake-bedrock.js';
import { attr, clientOf, json, SDKS, setup } from './harness.js';

const t = setup();

const PNG = noisePng(120, 120, 31);
const USAGE = { input: 12, input_cache_read: 30, input_cache_write: 8, output: 20, total: 70 };
const body = (extra: object = {}) =>
  JSON.stringify({
    anthropic_version: 'bedrock-2023-05-31',
    max_tokens: 128,
    temperature: 0.3,
    system: 'You are terse.',
    messages: [{ role: 'user', content: 'Hi' }],
    ...extra,
  });

for (const [label, sdk] of SDKS) {
  describe(`InvokeModel (${label})`, () => {
    it('an Anthropic body: one generation read like the Messages API; an image in it uploaded as media; the caller reads the body', async () => {
      t.fake.reply('invoke', { json: anthropicMessage('Hello.') });
      const client = clientOf(sdk, t.fake.url);
      const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG.toString('base64') } };
      const { result, spans } = await t.traced(async () => {
        const out = await observeBedrock(client).send(
          new sdk.InvokeModelCommand({
            modelId: MODEL,
            contentType: 'application/json',
            body: new TextEncoder().encode(body({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }, image] }] })),
          }),
        );
        return JSON.parse(new TextDecoder().decode(out.body));
      });
      client.destroy();
      expect(result.content[0].text).toBe('Hello.');
      expect(spans).toHaveLength(1);
      const gen = spans[0]!;
      expect(gen.name).toBe('bedrock.invoke_model');
      expect(attr(gen, 'type')).toBe('generation');
      expect(attr(gen, 'model.name')).toBe('claude-test-2026');
      expect(json(gen, 'model.parameters')).toEqual({ max_tokens: 128, temperature: 0.3 });
      const input = json(gen, 'input');
      expect(input[0]).toEqual({ role: 'system', content: 'You are terse.' });
      expect(input[1].content[0]).toEqual({ type: 'text', text: 'Hi' });
      const [ref] = mediaReferencesIn(input[1].content[1].source.data);
      expect(ref).toMatchObject({ type: 'image/png', source: 'base64_data_uri' });
      expect(t.local.server.media.bytes(ref!.id)?.equals(PNG)).toBe(true);
      expect(longestBase64Run(t.local.server.spans())).toBeLessThan(1024);
      expect(json(gen, 'output')).toEqual({ role: 'assistant', content: 'Hello.' });
      expect(json(gen, 'usage_details')).toEqual(USAGE);
      expect(attr(gen, 'metadata.stop_reason')).toBe('end_turn');
    });

    it('InvokeModelWithResponseStream, an Anthropic body: the SDK’s chunks; one generation with the assembled answer and usage', async () => {
      t.fake.reply('invoke-with-response-stream', { events: anthropicChunks('Hello there.'), delayMs: 2 });
      const client = clientOf(sdk, t.fake.url);
      const { result, spans } = await t.traced(async () => {
        const out = await observeBedrock(client).send(
          new sdk.InvokeModelWithResponseStreamCommand({ modelId: MODEL, body: body({ stream: undefined }) }),
        );
        let text = '';
        for await (const event of out.body!) {
          const e = JSON.parse(new TextDecoder().decode(event.chunk!.bytes));
          if (e.type === 'content_block_delta') text += e.delta.text;
        }
        return text;
      });
      client.destroy();
      expect(result).toBe('Hello there.');
      expect(spans).toHaveLength(1);
      const gen = spans[0]!;
      expect(gen.name).toBe('bedrock.invoke_model_with_response_stream');
      expect(json(gen, 'output')).toEqual({ role: 'assistant', content: 'Hello there.' });
      expect(json(gen, 'usage_details')).toEqual(USAGE);
      expect(attr(gen, 'completion_start_time')).toBeDefined();
      expect(attr(gen, 'level')).toBeUndefined();
    });

    it('an embedding model: one embedding with its text and token count; another model’s JSON as it is', async () => {
      t.fake.reply('invoke', { json: { embedding: [0.1, 0.2], inputTextTokenCount: 6 } }, 'amazon.titan-embed-text-v2');
      t.fake.reply('invoke', { json: { generation: 'Hi!', prompt_token_count: 3 } }, 'meta.llama-test');
      const client = clientOf(sdk, t.fake.url);
      const bedrock = observeBedrock(client);
      const { spans } = await t.traced(async () => {
        await bedrock.send(
          new sdk.InvokeModelCommand({ modelId: 'amazon.titan-embed-text-v2', body: JSON.stringify({ inputText: 'Refund policy' }) }),
        );
        await bedrock.send(
          new sdk.InvokeModelCommand({ modelId: 'meta.llama-test', body: JSON.stringify({ prompt: 'Hi', max_gen_len: 16 }) }),
        );
      });
      client.destroy();
      expect(spans.map((s) => [s.name, attr(s, 'type'), attr(s, 'model.name')])).toEqual([
        ['bedrock.invoke_model', 'embedding', 'amazon.titan-embed-text-v2'],
        ['bedrock.invoke_model', 'generation', 'meta.llama-test'],
      ]);
      expect(attr(spans[0]!, 'input')).toBe('Refund policy');
      expect(json(spans[0]!, 'usage_details')).toEqual({ input: 6, total: 6 });
      expect(attr(spans[0]!, 'output')).toBeUndefined();
      expect(json(spans[1]!, 'input')).toEqual({ prompt: 'Hi', max_gen_len: 16 });
      expect(json(spans[1]!, 'output')).toEqual({ generation: 'Hi!', prompt_token_count: 3 });
    });
  });
}

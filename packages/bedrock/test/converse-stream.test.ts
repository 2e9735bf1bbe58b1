/**
 * `ConverseStreamCommand` through `observeBedrock`, with the real SDK 3.x (HTTP/2) and 3.588
 * (HTTP/1.1) against the stand-in's `application/vnd.amazon.eventstream` body (binary messages with
 * CRCs): the caller gets the SDK's output with its `stream` of events; one generation with the
 * answer assembled from the deltas (text, tool input), usage from the `metadata` event and
 * `completion_start_time` at the first delta. A stream the caller leaves, or aborts with its
 * `abortSignal`, is WARNING with the text so far; an exception event mid-stream is ERROR, and the
 * caller gets the SDK's exception.
 */
import { describe, expect, it } from 'vitest';
import { observeBedrock } from '../src/index.js';
import { converseEvents, converseOutput, MODEL, USAGE_DETAILS } from './fake-bedrock.js';
import { attr, clientOf, json, obsEnding, readStream, SDKS, setup } from './harness.js';

const t = setup();

const ANSWER = converseOutput(
  [{ text: 'Sunny and 22 °C.' }, { toolUse: { toolUseId: 'tooluse_1', name: 'weather', input: { city: 'Paris' } } }],
  undefined,
  'tool_use',
);
const OUTPUT = {
  role: 'assistant',
  content: 'Sunny and 22 °C.',
  tool_calls: [{ id: 'tooluse_1', name: 'weather', args: { city: 'Paris' } }],
};
const INPUT = {
  modelId: MODEL,
  messages: [{ role: 'user' as const, content: [{ text: 'Weather in Paris?' }] }],
  inferenceConfig: { maxTokens: 64 },
};

type Event = { contentBlockDelta?: { delta?: { text?: string } } };
/** What the early endings keep of `Hello there, Paris.`: its first delta. */
const PARTIAL = { role: 'assistant', content: 'Hello ther' };

for (const [label, sdk] of SDKS) {
  describe(`ConverseStream (${label})`, () => {
    it('read to the end: the SDK’s events; one generation with the assembled answer, usage and completion_start_time', async () => {
      t.fake.reply('converse-stream', { events: converseEvents(ANSWER), delayMs: 2 });
      const client = clientOf(sdk, t.fake.url);
      const { result, spans } = await t.traced(async () => {
        const out = await observeBedrock(client).send(new sdk.ConverseStreamCommand(INPUT));
        expect(out.$metadata.httpStatusCode).toBe(200);
        const kinds: string[] = [];
        for await (const event of out.stream!)
          kinds.push(Object.keys(event).find((k) => (event as Record<string, unknown>)[k] !== undefined)!);
        return kinds;
      });
      client.destroy();
      expect(result).toEqual(converseEvents(ANSWER).map((e) => Object.keys(e)[0]));
      expect(spans).toHaveLength(1);
      const gen = spans[0]!;
      expect(gen.name).toBe('bedrock.converse_stream');
      expect(attr(gen, 'model.name')).toBe(MODEL);
      expect(json(gen, 'model.parameters')).toEqual({ maxTokens: 64 });
      expect(json(gen, 'input')).toEqual([{ role: 'user', content: 'Weather in Paris?' }]);
      expect(attr(gen, 'metadata.stop_reason')).toBe('tool_use');
      expect(attr(gen, 'metadata.latency_ms')).toBe(321);
      // toEqual: no level and no status message, it ended well.
      expect(obsEnding(gen)).toEqual({ output: OUTPUT, usage: USAGE_DETAILS, completionStart: 'within' });
    });

    it('a stream the caller leaves: WARNING with the text so far, ended at once', async () => {
      t.fake.reply('converse-stream', {
        events: converseEvents(converseOutput([{ text: 'Hello there, Paris.' }])),
        delayMs: 30,
        hang: true,
      });
      const client = clientOf(sdk, t.fake.url);
      const { spans } = await t.traced(async () => {
        const out = await observeBedrock(client).send(new sdk.ConverseStreamCommand(INPUT));
        return readStream(out.stream! as AsyncIterable<Event>, { leaveAfter: (event) => event.contentBlockDelta !== undefined });
      });
      client.destroy();
      expect(spans).toHaveLength(1);
      expect(obsEnding(spans[0]!)).toMatchObject({ level: 'WARNING', output: PARTIAL });
      expect(attr(spans[0]!, 'status_message')).toMatch(/stopped reading/);
    });

    it('a stream aborted with its abortSignal: WARNING with the text so far, however the SDK ends it', async () => {
      t.fake.reply('converse-stream', {
        events: converseEvents(converseOutput([{ text: 'Hello there, Paris.' }])),
        delayMs: 30,
        hang: true,
      });
      const client = clientOf(sdk, t.fake.url);
      const controller = new AbortController();
      const { result, spans } = await t.traced(async () => {
        const out = await observeBedrock(client).send(new sdk.ConverseStreamCommand(INPUT), { abortSignal: controller.signal });
        return readStream(out.stream! as AsyncIterable<Event>, {
          each: (event) => {
            if (event.contentBlockDelta) controller.abort();
          },
        });
      });
      client.destroy();
      // The SDK's HTTP/2 handler ends the stream quietly on an abort; 3.588's HTTP/1.1 one throws `Error: aborted`.
      if (label === 'client-bedrock-runtime 3.x') expect(result.error).toBeUndefined();
      else expect((result.error as Error).message).toBe('aborted');
      expect(spans).toHaveLength(1);
      expect(obsEnding(spans[0]!)).toMatchObject({ level: 'WARNING', statusMessage: expect.stringMatching(/^aborted/), output: PARTIAL });
    });

    it('an exception event mid-stream: ERROR with its message and the text so far; the caller gets the SDK’s exception', async () => {
      const events = converseEvents(converseOutput([{ text: 'Hello there, Paris.' }])).slice(0, 2);
      t.fake.reply('converse-stream', { events, exception: { type: 'modelStreamErrorException', message: 'The model stream failed.' } });
      const client = clientOf(sdk, t.fake.url);
      const { result, spans } = await t.traced(async () =>
        readStream((await observeBedrock(client).send(new sdk.ConverseStreamCommand(INPUT))).stream!),
      );
      client.destroy();
      expect(result.error).toBeInstanceOf(sdk.ModelStreamErrorException);
      expect(spans).toHaveLength(1);
      expect(obsEnding(spans[0]!)).toMatchObject({ level: 'ERROR', statusMessage: 'The model stream failed.', output: PARTIAL });
    });
  });
}

/**
 * OpenInference's Bedrock instrumentation next to `observeBedrock` (SDK 3.x, its module patched
 * as OpenInference's docs say): it patches the client's `send`, so without obs's care each call
 * would be two generations, obs's and OpenInference's (which obs reads as a generation too).
 * Calls through the observed client run with tracing suppressed below obs's generation: each is
 * exactly one span on the server, obs's; a client that is not observed keeps OpenInference's.
 */
import { BedrockInstrumentation } from '@arizeai/openinference-instrumentation-bedrock';
import * as sdk from '@aws-sdk/client-bedrock-runtime';
import { afterAll, describe, expect, it } from 'vitest';
import { observeBedrock } from '../src/index.js';
import { converseEvents, converseOutput, MODEL } from './fake-bedrock.js';
import { attr, clientOf, setup } from './harness.js';

const t = setup();
const instrumentation = new BedrockInstrumentation();
instrumentation.manuallyInstrument(sdk as never);
afterAll(() => instrumentation.disable());

const input = { modelId: MODEL, messages: [{ role: 'user' as const, content: [{ text: 'Hi' }] }] };

describe('with OpenInference’s Bedrock instrumentation', () => {
  it('a client that is not observed: OpenInference’s span, read as a generation', async () => {
    t.fake.reply('converse', { json: converseOutput([{ text: 'Hi.' }]) });
    const client = clientOf(sdk, t.fake.url);
    const { spans } = await t.traced(() => client.send(new sdk.ConverseCommand(input)));
    client.destroy();
    expect(spans.map((s) => [s.scope.name, attr(s, 'type')])).toEqual([['@arizeai/openinference-instrumentation-bedrock', 'generation']]);
  });

  it('the observed client: Converse and ConverseStream are one generation each, obs’s', async () => {
    t.fake.reply('converse', { json: converseOutput([{ text: 'Hi.' }]) });
    t.fake.reply('converse-stream', { events: converseEvents(converseOutput([{ text: 'Hi.' }])) });
    const client = clientOf(sdk, t.fake.url);
    const bedrock = observeBedrock(client);
    const { spans } = await t.traced(async () => {
      await bedrock.send(new sdk.ConverseCommand(input));
      for await (const _ of (await bedrock.send(new sdk.ConverseStreamCommand(input))).stream!);
    });
    client.destroy();
    expect(t.fake.calls).toHaveLength(2);
    expect(spans.map((s) => [s.name, s.scope.name, attr(s, 'type')])).toEqual([
      ['bedrock.converse', 'obs-sdk', 'generation'],
      ['bedrock.converse_stream', 'obs-sdk', 'generation'],
    ]);
  });
});

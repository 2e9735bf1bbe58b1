/**
 * `ConverseCommand` through `observeBedrock`, with the real `@aws-sdk/client-bedrock-runtime` 3.x
 * (HTTP/2) and 3.588 (HTTP/1.1) against the stand-in: one generation per call under the active
 * observation, read back from the obs server field by field (model, `inferenceConfig` and tool
 * choice as parameters, system and messages in obs's shape with tool uses, tool results and
 * reasoning, the answer, usage with cache reads and writes, stop reason); an error ERROR with the
 * SDK's exception reaching the caller unchanged; the aggregated `BedrockRuntime` client; other
 * commands, and the caller's own client, left alone.
 */
import { describe, expect, it } from 'vitest';
import { observeBedrock } from '../src/index.js';
import { converseOutput, MODEL, USAGE_DETAILS } from './fake-bedrock.js';
import { attr, CREDENTIALS, clientOf, json, SDKS, setup } from './harness.js';

const t = setup();

const TOOLS = [
  { toolSpec: { name: 'weather', description: 'Weather in a city', inputSchema: { json: { type: 'object', properties: {} } } } },
];

for (const [label, sdk, httpVersion] of SDKS) {
  describe(`Converse (${label})`, () => {
    // 3.588 knows no reasoning or cache point blocks (it cannot send them, nor read them back).
    const sdk3 = label === 'client-bedrock-runtime 3.x';
    const thought = (text: string) => (sdk3 ? [{ reasoningContent: { reasoningText: { text, signature: 'sig' } } }] : []);

    it('a Converse call: one generation with model, parameters, system and messages, the answer, usage; the caller gets the SDK’s output', async () => {
      t.fake.reply('converse', {
        json: converseOutput([
          ...thought('The user wants Oslo.'),
          { text: 'Sunny, ' },
          { text: '22 °C.' },
          { toolUse: { toolUseId: 'tooluse_2', name: 'weather', input: { city: 'Oslo' } } },
        ]),
      });
      const client = clientOf(sdk, t.fake.url);
      const bedrock = observeBedrock(client);
      const { result, spans } = await t.traced(() =>
        bedrock.send(
          new sdk.ConverseCommand({
            modelId: MODEL,
            system: [{ text: 'You are terse.' }, ...(sdk3 ? [{ cachePoint: { type: 'default' } } as never] : [])],
            messages: [
              { role: 'user', content: [{ text: 'Weather in Paris?' }] },
              {
                role: 'assistant',
                content: [
                  ...(thought('Call the tool.') as never[]),
                  { toolUse: { toolUseId: 'tooluse_1', name: 'weather', input: { city: 'Paris' } } },
                ],
              },
              {
                role: 'user',
                content: [
                  { toolResult: { toolUseId: 'tooluse_1', content: [{ json: { forecast: 'sunny, 22 °C' } }] } },
                  { toolResult: { toolUseId: 'tooluse_0', content: [{ text: 'no such city' }], status: 'error' } },
                  { text: 'And Oslo?' },
                ],
              },
            ],
            inferenceConfig: { maxTokens: 256, temperature: 0.2, topP: 0.9, stopSequences: ['END'] },
            toolConfig: { tools: TOOLS as never, toolChoice: { auto: {} } },
            additionalModelRequestFields: { top_k: 40 } as never,
          }),
        ),
      );
      client.destroy();
      expect(result.output?.message?.content?.at(-3)).toEqual({ text: 'Sunny, ' });
      expect(result.usage?.cacheReadInputTokens).toBe(30);
      expect(result.$metadata.httpStatusCode).toBe(200);
      expect(t.fake.calls.map((c) => [c.path, c.httpVersion])).toEqual([[`/model/${MODEL}/converse`, httpVersion]]);
      expect(spans).toHaveLength(1);
      const gen = spans[0]!;
      expect(gen.name).toBe('bedrock.converse');
      expect(attr(gen, 'type')).toBe('generation');
      expect(attr(gen, 'model.name')).toBe(MODEL);
      expect(json(gen, 'model.parameters')).toEqual({
        maxTokens: 256,
        temperature: 0.2,
        topP: 0.9,
        stopSequences: ['END'],
        tool_choice: 'auto',
      });
      expect(json(gen, 'input')).toEqual([
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'tooluse_1', name: 'weather', args: { city: 'Paris' } }],
          ...(sdk3 ? { reasoning: 'Call the tool.' } : {}),
        },
        { role: 'tool', tool_call_id: 'tooluse_1', content: { forecast: 'sunny, 22 °C' } },
        { role: 'tool', tool_call_id: 'tooluse_0', content: 'no such city', is_error: true },
        { role: 'user', content: 'And Oslo?' },
      ]);
      expect(json(gen, 'output')).toEqual({
        role: 'assistant',
        content: 'Sunny, 22 °C.',
        tool_calls: [{ id: 'tooluse_2', name: 'weather', args: { city: 'Oslo' } }],
        ...(sdk3 ? { reasoning: 'The user wants Oslo.' } : {}),
      });
      expect(json(gen, 'usage_details')).toEqual(USAGE_DETAILS);
      expect(attr(gen, 'metadata.stop_reason')).toBe('end_turn');
      expect(attr(gen, 'metadata.latency_ms')).toBe(321);
      expect(JSON.parse(String(attr(gen, 'metadata.tools')))).toEqual(TOOLS);
      expect(JSON.parse(String(attr(gen, 'metadata.additional_model_request_fields')))).toEqual({ top_k: 40 });
      expect(attr(gen, 'level')).toBeUndefined();
    });

    it('an error: ERROR with the message; the caller gets the SDK’s own exception', async () => {
      t.fake.reply('converse', {
        status: 400,
        errorType: 'ValidationException',
        json: { message: 'The provided model identifier is invalid.' },
      });
      const client = clientOf(sdk, t.fake.url);
      const { result, spans } = await t.traced(() =>
        observeBedrock(client)
          .send(new sdk.ConverseCommand({ modelId: MODEL, messages: [{ role: 'user', content: [{ text: 'Hi' }] }] }))
          .catch((e: unknown) => e),
      );
      client.destroy();
      expect(result).toBeInstanceOf(sdk.ValidationException);
      expect(spans).toHaveLength(1);
      expect(attr(spans[0]!, 'level')).toBe('ERROR');
      expect(attr(spans[0]!, 'status_message')).toBe('The provided model identifier is invalid.');
      expect(attr(spans[0]!, 'model.name')).toBe(MODEL);
    });

    it('the aggregated BedrockRuntime client: converse() is one generation', async () => {
      t.fake.reply('converse', { json: converseOutput([{ text: 'Hi.' }]) });
      const client = new sdk.BedrockRuntime({ region: 'us-east-1', endpoint: t.fake.url, credentials: CREDENTIALS, maxAttempts: 1 });
      const { result, spans } = await t.traced(() =>
        observeBedrock(client).converse({ modelId: MODEL, messages: [{ role: 'user', content: [{ text: 'Hi' }] }] }),
      );
      client.destroy();
      expect(result.output?.message?.content?.[0]?.text).toBe('Hi.');
      expect(spans.map((s) => s.name)).toEqual(['bedrock.converse']);
      expect(json(spans[0]!, 'output')).toEqual({ role: 'assistant', content: 'Hi.' });
    });

    it('options name and metadata; observing twice: one generation per call; the caller’s client untraced; other commands left alone', async () => {
      t.fake.reply('converse', { json: converseOutput([{ text: 'Hi.' }]) });
      t.fake.reply('/guardrail/gr-1/version/1/apply', { json: { action: 'NONE', outputs: [], assessments: [] } });
      const client = clientOf(sdk, t.fake.url);
      const bedrock = observeBedrock(observeBedrock(client), { name: 'support-bot', metadata: { feature: 'refunds' } });
      expect(bedrock).toBeInstanceOf(sdk.BedrockRuntimeClient);
      const command = () => new sdk.ConverseCommand({ modelId: MODEL, messages: [{ role: 'user', content: [{ text: 'Hi' }] }] });
      const { spans } = await t.traced(async () => {
        await bedrock.send(command());
        await client.send(command());
        // 3.588 has the four model commands only, all traced.
        if (sdk3)
          await bedrock.send(
            new sdk.ApplyGuardrailCommand({
              guardrailIdentifier: 'gr-1',
              guardrailVersion: '1',
              source: 'INPUT',
              content: [{ text: { text: 'Hi' } }],
            }),
          );
      });
      client.destroy();
      expect(t.fake.calls).toHaveLength(sdk3 ? 3 : 2);
      expect(spans.map((s) => s.name)).toEqual(['support-bot']);
      expect(attr(spans[0]!, 'metadata.feature')).toBe('refunds');
    });
  });
}

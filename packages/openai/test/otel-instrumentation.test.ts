/**
 * An app that runs OpenTelemetry's GenAI-semconv OpenAI instrumentation
 * (`@opentelemetry/instrumentation-openai`, which patches `openai` 4.19-6) instead of
 * `observeOpenAI`: its spans read as the same observations, through core's GenAI reading: a chat
 * call a generation with the model, parameters and usage the instrumentation records (the
 * messages it emits as log events, not on spans), a failed call ERROR, an embeddings call one
 * embedding. Compared field by field with what `observeOpenAI` records for the same call.
 */
import { createRequire } from 'node:module';
import { metrics } from '@opentelemetry/api';
import { OpenAIInstrumentation } from '@opentelemetry/instrumentation-openai';
import type { DecodedSpan } from '@obs/local-server';
import type OpenAIType from 'openai6';
import { beforeAll, describe, expect, it } from 'vitest';
import { observeOpenAI } from '../src/index.js';
import { completion } from './fake-openai.js';
import { API_KEY, attr, json, setup } from './harness.js';

const t = setup();
const require = createRequire(import.meta.url);

/** Two copies of openai 6's CommonJS build: one patched by the instrumentation, one left alone. */
let Instrumented: typeof OpenAIType;
let Plain: typeof OpenAIType;

beforeAll(() => {
  const instrumentation = new OpenAIInstrumentation();
  // What registerInstrumentations() does: its metric instruments exist from here on.
  instrumentation.setMeterProvider(metrics.getMeterProvider());
  const mod = require('openai6');
  // The instrumentation hooks `require('openai')`; the package is installed under an alias here,
  // so its patch is applied to the module the way the hook would.
  for (const def of instrumentation.getModuleDefinitions()) def.patch?.(mod, '6.49.0');
  Instrumented = mod.OpenAI;
  // A fresh copy of the package, unpatched, for observeOpenAI.
  for (const key of Object.keys(require.cache)) if (key.includes('/openai6/')) delete require.cache[key];
  Plain = (require('openai6') as { OpenAI: typeof OpenAIType }).OpenAI;
});

const USAGE = { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 };
const MESSAGES = [{ role: 'user' as const, content: 'Weather in Paris?' }];

describe('@opentelemetry/instrumentation-openai spans read as obs observations', () => {
  const instrumented = () => new Instrumented({ apiKey: API_KEY, baseURL: t.fake.baseURL, maxRetries: 0 });
  const observed = () => observeOpenAI(new Plain({ apiKey: API_KEY, baseURL: t.fake.baseURL, maxRetries: 0 }));
  const sameCall = async (client: () => InstanceType<typeof OpenAIType>): Promise<DecodedSpan> => {
    const { spans } = await t.traced(() =>
      client().chat.completions.create({ model: 'gpt-test', messages: MESSAGES, temperature: 0.2, max_tokens: 64 }),
    );
    expect(spans).toHaveLength(1);
    return spans[0]!;
  };

  it('a chat call: a generation with the model, parameters and usage, as observeOpenAI records them', async () => {
    t.fake.reply('/chat/completions', { json: completion({ content: 'Sunny.' }, USAGE) });
    const otel = await sameCall(instrumented);
    const obs = await sameCall(observed);
    expect(otel.scope.name).toBe('@opentelemetry/instrumentation-openai');
    expect(obs.scope.name).toBe('obs-sdk');
    for (const s of [otel, obs]) {
      expect(attr(s, 'type')).toBe('generation');
      expect(attr(s, 'model.name')).toBe('gpt-test-2026');
      expect(json(s, 'model.parameters')).toMatchObject({ temperature: 0.2, max_tokens: 64 });
      expect(json(s, 'usage_details')).toEqual({ input: 20, output: 9, total: 29 });
      expect(attr(s, 'level')).toBeUndefined();
    }
  });

  it('a failed call: ERROR with the message, as observeOpenAI records it', async () => {
    t.fake.reply('/chat/completions', { status: 400, json: { error: { message: 'model not found', type: 'invalid_request_error' } } });
    const otel = await sameCall(() => wrapCatch(instrumented()));
    const obs = await sameCall(() => wrapCatch(observed()));
    for (const s of [otel, obs]) {
      expect(attr(s, 'type')).toBe('generation');
      expect(attr(s, 'level')).toBe('ERROR');
      expect(attr(s, 'status_message')).toMatch(/model not found/);
    }
  });

  it('an embeddings call: one embedding with its usage', async () => {
    t.fake.reply('/embeddings', {
      json: {
        object: 'list',
        model: 'text-embedding-test',
        data: [{ object: 'embedding', index: 0, embedding: [0.1] }],
        usage: { prompt_tokens: 6, total_tokens: 6 },
      },
    });
    const { spans } = await t.traced(() =>
      instrumented().embeddings.create({ model: 'text-embedding-test', input: 'hello', encoding_format: 'float' }),
    );
    expect(spans).toHaveLength(1);
    expect(attr(spans[0]!, 'type')).toBe('embedding');
    expect(attr(spans[0]!, 'model.name')).toBe('text-embedding-test');
    expect(json(spans[0]!, 'usage_details')).toEqual({ input: 6, total: 6 });
  });
});

/** A client whose chat calls resolve to the error instead of rejecting, so `sameCall` can read the span. */
function wrapCatch(client: InstanceType<typeof OpenAIType>): InstanceType<typeof OpenAIType> {
  const create = client.chat.completions.create.bind(client.chat.completions);
  (client.chat.completions as unknown as { create: unknown }).create = (...args: Parameters<typeof create>) =>
    Promise.resolve(create(...args)).catch((e: unknown) => e);
  return client;
}

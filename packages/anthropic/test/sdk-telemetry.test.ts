/**
 * `@anthropic-ai/sdk` 1.x records its own OpenTelemetry span per call, on by default, through
 * the tracer provider obs registers (obs exports it: a `CLIENT` span with `gen_ai.*`
 * attributes). Under `observeAnthropic` each call is still exactly one span on the server, obs's
 * generation: the observed client is a copy of the caller's with the SDK's spans off
 * (`openTelemetry.traces`), the caller's client keeps its own setting. The API key is in no
 * exported span (the harness checks every trace), with the SDK's spans on or off.
 */
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { observeAnthropic } from '../src/index.js';
import { events, message, text } from './fake-anthropic.js';
import { API_KEY, attr, setup } from './harness.js';

const t = setup();
const PARAMS = { model: 'claude-test', max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hi' }] };
const SDK_SCOPE = 'com.anthropic.sdk.typescript';

describe('the SDK’s own spans (1.x)', () => {
  const plain = () => new Anthropic({ apiKey: API_KEY, baseURL: t.fake.baseURL, maxRetries: 0 });

  it('without obs’s wrapper the SDK traces by default: its call reaches the server as its own span', async () => {
    t.fake.reply('/v1/messages', { json: message([text('Hi.')]) });
    const client = plain();
    expect(client.openTelemetry.traces.enabled).toBe(true);
    const { spans } = await t.traced(() => client.messages.create(PARAMS));
    expect(spans.map((s) => [s.name, s.scope.name])).toEqual([['anthropic.messages.create', SDK_SCOPE]]);
  });

  it('observed: JSON, streamed and helper calls are one generation each, and no span of the SDK’s', async () => {
    t.fake.reply('/v1/messages', (body) => (body['stream'] ? { sse: events(message([text('Hi.')])) } : { json: message([text('Hi.')]) }));
    const original = plain();
    const observed = observeAnthropic(original);
    expect(observed.openTelemetry.traces.enabled).toBe(false);
    expect(original.openTelemetry.traces.enabled).toBe(true);
    // A client from the observed one keeps the SDK's spans off, unless it asks for them.
    expect(observed.withOptions({ timeout: 1000 }).openTelemetry.traces.enabled).toBe(false);
    const { spans } = await t.traced(async () => {
      await observed.messages.create(PARAMS);
      for await (const _ of await observed.messages.create({ ...PARAMS, stream: true }));
      await observed.messages.stream(PARAMS).finalMessage();
      await observed.withOptions({ openTelemetry: { traces: true } }).messages.create(PARAMS);
    });
    expect(t.fake.calls).toHaveLength(4);
    expect(spans.map((s) => [s.name, s.scope.name, attr(s, 'type')])).toEqual(
      Array.from({ length: 4 }, () => ['anthropic.messages.create', 'obs-sdk', 'generation']),
    );
  });
});

/**
 * Spans of the current OpenTelemetry GenAI conventions (issue 46 item 6), as a real library
 * writes them: `@anthropic-ai/sdk` 1.x traces its own calls (`gen_ai.provider.name`,
 * `gen_ai.system_instructions`, `gen_ai.input.messages` / `gen_ai.output.messages` JSON with
 * reasoning, tool-call and tool-result parts, `gen_ai.usage.cache_read.input_tokens` /
 * `cache_creation.input_tokens`, `gen_ai.response.time_to_first_chunk`), here with its content
 * recorded, against a local stand-in Anthropic API; obs's default filter exports them and reads
 * each as one generation, field by field, on both tracer providers.
 */
import { Anthropic } from '@anthropic-ai/sdk';
import { initObs } from '@obs/core';
import { obsAttr as attr, obsJson as json, setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicMessage, INVALID_REQUEST, streamedHelloThere, TOOL_RESULT_MESSAGES, TOOL_TURN } from './anthropic-turns.js';
import { only, QUESTION, SYSTEM, tracedSpans, WEATHER_CALL } from './fixtures.js';
import { startStandIn, type StandIn } from './stand-in-apis.js';

const local = setupObsServer({ init: (c) => initObs({ ...c, flushInterval: 0.05, flushOnExit: false }) });

let api: StandIn;
let anthropic: Anthropic;
beforeAll(async () => {
  api = await startStandIn();
  anthropic = new Anthropic({
    apiKey: 'sk-ant-test',
    baseURL: api.url,
    maxRetries: 0,
    openTelemetry: { traces: { contentMode: 'content' } },
  });
});
afterAll(() => api.close());

/** Runs `fn` under a root observation; returns the SDK's spans, each checked to be the root's child. */
const traced = (fn: () => Promise<unknown>) => tracedSpans(local, fn);
const MODEL = 'claude-test-20250929';

describe("@anthropic-ai/sdk's own GenAI spans", () => {
  it('messages.create: system instructions first, reasoning, a tool call, cache reads and writes as buckets, no level', async () => {
    api.reply('/messages', { json: anthropicMessage(MODEL, TOOL_TURN.content, TOOL_TURN.usage) });
    const spans = await traced(() =>
      anthropic.messages.create({
        model: 'claude-test',
        max_tokens: 1024,
        system: SYSTEM,
        messages: [{ role: 'user', content: QUESTION }],
      }),
    );
    const gen = only(spans);
    expect(gen.attributes['gen_ai.provider.name']).toBe('anthropic');
    expect(attr(gen, 'type')).toBe('generation');
    expect(attr(gen, 'model.name')).toBe(MODEL);
    expect(json(gen, 'model.parameters')).toEqual({ max_tokens: 1024 });
    expect(json(gen, 'input')).toEqual([
      { role: 'system', content: SYSTEM },
      { role: 'user', content: QUESTION },
    ]);
    expect(json(gen, 'output')).toEqual(TOOL_TURN.output);
    expect(json(gen, 'usage_details')).toEqual(TOOL_TURN.usageDetails);
    expect(attr(gen, 'level')).toBeUndefined();
    expect(attr(gen, 'completion_start_time')).toBeUndefined();
  });

  it('a tool result sent as user content: a tool message in the input', async () => {
    api.reply('/messages', { json: anthropicMessage(MODEL, [{ type: 'text', text: 'Sunny' }], { input_tokens: 20, output_tokens: 1 }) });
    const spans = await traced(() =>
      anthropic.messages.create({
        model: 'claude-test',
        max_tokens: 100,
        messages: TOOL_RESULT_MESSAGES,
      }),
    );
    const gen = only(spans);
    expect(json(gen, 'input')).toEqual([
      { role: 'user', content: QUESTION },
      { role: 'assistant', content: '', tool_calls: [WEATHER_CALL] },
      { role: 'tool', tool_call_id: 'call-1', content: [{ type: 'text', text: 'sunny' }] },
    ]);
    expect(json(gen, 'output')).toEqual({ role: 'assistant', content: 'Sunny' });
    expect(json(gen, 'usage_details')).toEqual({ input: 20, output: 1, total: 21 });
  });

  it('a streamed message: the text, and completion_start_time from gen_ai.response.time_to_first_chunk', async () => {
    api.reply('/messages', streamedHelloThere(MODEL));
    let text = '';
    const spans = await traced(async () => {
      const stream = anthropic.messages.stream({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] });
      stream.on('text', (t) => {
        text += t;
      });
      await stream.finalMessage();
    });
    expect(text).toBe('Hello there');
    const gen = only(spans);
    expect(gen.attributes['gen_ai.response.time_to_first_chunk']).toBeTypeOf('number');
    expect(json(gen, 'output')).toEqual({ role: 'assistant', content: 'Hello there' });
    expect(json(gen, 'usage_details')).toEqual({ input: 9, output: 2, total: 11 });
    const start = new Date(String(attr(gen, 'completion_start_time'))).getTime();
    expect(start).toBeGreaterThanOrEqual(gen.startTime.getTime());
    expect(start).toBeLessThanOrEqual(gen.endTime.getTime());
    expect(attr(gen, 'level')).toBeUndefined();
  });

  it('an API error: ERROR, with the error.type the SDK records as the status message', async () => {
    api.reply('/messages', INVALID_REQUEST);
    const spans = await traced(() =>
      anthropic.messages.create({ model: 'claude-test', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }).catch((e) => e),
    );
    const gen = only(spans);
    expect(attr(gen, 'level')).toBe('ERROR');
    expect(attr(gen, 'status_message')).toBe('invalid_request_error');
  });
});

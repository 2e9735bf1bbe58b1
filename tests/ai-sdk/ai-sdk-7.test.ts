/**
 * AI SDK 7 as apps wire it (issue 46 item 7), with the real `ai` and `@ai-sdk/otel` packages and
 * their mock models, read back from the local obs server: through the integration obs registers
 * when the app registers none, `embed()` has its value as input and a cancelled `streamText`
 * keeps its partial text and completion start; with the app's own registered integrations
 * (`LegacyOpenTelemetry`, `OpenTelemetry`) a cancelled stream keeps both too, and a legacy stream's
 * completion start is its first chunk (`ai.response.msToFirstChunk`), not the end of the stream
 * (where `LegacyOpenTelemetry` adds its first-chunk event); a small image part (< 1,024 base64
 * characters) whose `mediaType` is given is uploaded like any other.
 */
import { LegacyOpenTelemetry, OpenTelemetry } from '@ai-sdk/otel';
import { initObs } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { longestBase64Run, mediaReferencesIn, noisePng, setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { registry, spansBelowRoot, withRegistered } from './harness.js';
import { mockEmbeddingModel, mockModel, VARIANTS } from './variants.js';

const local = setupObsServer({ init: (c) => initObs({ ...c, flushInterval: 0.05, flushOnExit: false }) });
const v7 = VARIANTS.find((v) => v.spec === 4)!;
const { ai } = v7;

const traced = (fn: () => Promise<unknown>) => spansBelowRoot(local, fn);
const attr = (s: DecodedSpan, key: string) => s.attributes[`obs.observation.${key}`];
const json = (s: DecodedSpan, key: string) => JSON.parse(String(attr(s, key)));
const ofType = (spans: DecodedSpan[], t: string) => spans.filter((s) => attr(s, 'type') === t);
const ms = (iso: unknown) => new Date(String(iso)).getTime();

/** A streamText cancelled after its first delta; returns the text the caller got and when. */
async function cancelledStream(): Promise<{ spans: DecodedSpan[]; text: string; firstDeltaAt: number }> {
  let release!: () => void;
  const pause = new Promise<void>((r) => (release = r));
  const { model } = mockModel(v7, [{ text: 'Hello there' }], { pauseAfterFirstChunk: pause });
  const abort = new AbortController();
  let text = '';
  let firstDeltaAt = 0;
  const spans = await traced(async () => {
    const r = ai.streamText({
      model,
      prompt: 'Hi',
      abortSignal: abort.signal,
      experimental_telemetry: { isEnabled: true },
      onError: () => {},
    });
    for await (const delta of r.textStream) {
      firstDeltaAt ||= Date.now();
      text += delta;
      abort.abort();
      release();
    }
  });
  return { spans, text, firstDeltaAt };
}

function expectPartial(spans: DecodedSpan[], text: string, firstDeltaAt: number): void {
  const gens = ofType(spans, 'generation');
  expect(gens).toHaveLength(1);
  const [gen] = gens;
  expect(attr(gen!, 'level')).toBe('WARNING');
  expect(json(gen!, 'output')).toEqual({ role: 'assistant', content: text });
  const start = ms(attr(gen!, 'completion_start_time'));
  expect(start).toBeGreaterThanOrEqual(gen!.startTime.getTime());
  expect(start).toBeLessThanOrEqual(firstDeltaAt); // the chunk reached the caller after obs saw it
}

describe('through the integration obs registers (the app registered none)', () => {
  it('obs registered exactly one entry', () => {
    expect(registry.AI_SDK_TELEMETRY_INTEGRATIONS).toHaveLength(1);
  });

  it('embed(): the chain and the embedding have the value as input; embedMany: the values', async () => {
    const one = mockEmbeddingModel(v7, 7);
    const spans = await traced(() => ai.embed({ model: one.model, value: 'hello', experimental_telemetry: { isEnabled: true } }));
    expect(spans.map((s) => attr(s, 'type')).sort()).toEqual(['chain', 'embedding']);
    expect(attr(ofType(spans, 'chain')[0]!, 'input')).toBe('hello');
    const [emb] = ofType(spans, 'embedding');
    expect(json(emb!, 'input')).toEqual(['hello']);
    expect(json(emb!, 'usage_details')).toEqual({ input: 7, total: 7 });

    const many = mockEmbeddingModel(v7, 5);
    const manySpans = await traced(() =>
      ai.embedMany({ model: many.model, values: ['a', 'b'], experimental_telemetry: { isEnabled: true } }),
    );
    expect(json(ofType(manySpans, 'chain')[0]!, 'input')).toEqual(['a', 'b']);
    expect(
      ofType(manySpans, 'embedding')
        .map((e) => json(e, 'input')[0])
        .sort(),
    ).toEqual(['a', 'b']);
  });

  it('a streamText cancelled with an abortSignal keeps its partial text and completion start (WARNING)', async () => {
    const { spans, text, firstDeltaAt } = await cancelledStream();
    expect(text).toBe('Hello ');
    expectPartial(spans, text, firstDeltaAt);
  });

  it('a finished streamText reads as before: the full text, completion start inside the call, no level', async () => {
    const { model } = mockModel(v7, [{ text: 'Hello there' }]);
    const spans = await traced(async () => {
      const r = ai.streamText({ model, prompt: 'Hi', experimental_telemetry: { isEnabled: true } });
      for await (const _ of r.textStream);
    });
    const [gen] = ofType(spans, 'generation');
    expect(json(gen!, 'output')).toEqual({ role: 'assistant', content: 'Hello there' });
    expect(attr(gen!, 'level')).toBeUndefined();
    expect(ms(attr(gen!, 'completion_start_time'))).toBeLessThanOrEqual(gen!.endTime.getTime());
  });
});

describe('the app’s own registered integration', () => {
  for (const [name, make] of [
    ['LegacyOpenTelemetry', () => new LegacyOpenTelemetry()],
    ['OpenTelemetry', () => new OpenTelemetry()],
  ] as const) {
    it(`${name}: a cancelled streamText keeps its partial text and completion start`, async () => {
      const { spans, text, firstDeltaAt } = await withRegistered(make(), cancelledStream);
      expect(text).toBe('Hello ');
      expectPartial(spans, text, firstDeltaAt);
    });
  }

  it('LegacyOpenTelemetry: completion start is the first chunk (msToFirstChunk), not the end of the stream', async () => {
    // The stream pauses 80 ms after its first delta (timed from the delta, not from here: under load
    // the call may start late): the first-chunk event the integration adds at the end falls after
    // the caller got that delta.
    const { model } = mockModel(v7, [{ text: 'Hello there' }], { pauseAfterFirstChunk: () => new Promise((r) => setTimeout(r, 80)) });
    let firstDeltaAt = 0;
    const spans = await withRegistered(new LegacyOpenTelemetry(), () =>
      traced(async () => {
        const r = ai.streamText({ model, prompt: 'Hi', experimental_telemetry: { isEnabled: true } });
        for await (const _ of r.textStream) firstDeltaAt ||= Date.now();
      }),
    );
    const gens = ofType(spans, 'generation');
    expect(gens.map((g) => g.scope.name)).toEqual(['ai']);
    const start = ms(attr(gens[0]!, 'completion_start_time'));
    expect(start).toBeGreaterThanOrEqual(gens[0]!.startTime.getTime());
    expect(start).toBeLessThanOrEqual(firstDeltaAt);
    expect(gens[0]!.endTime.getTime() - start).toBeGreaterThanOrEqual(60);
  });
});

describe('a small image part with its mediaType', () => {
  /** 160 base64 characters. */
  const PNG = noisePng(4, 4, 3);

  for (const v of VARIANTS) {
    it(`${v.name}: uploaded once, referenced from the generation's input, no base64 left`, async () => {
      expect(PNG.toString('base64').length).toBeLessThan(1024);
      const { model } = mockModel(v, [{ text: 'A dot.' }]);
      const spans = await traced(() =>
        v.ai.generateText({
          model,
          messages: [{ role: 'user', content: [{ type: 'image', image: PNG.toString('base64'), mediaType: 'image/png' }] }],
          experimental_telemetry: { isEnabled: true, ...(v.integration ? { integrations: [v.integration()] } : {}) },
        }),
      );
      const refs = mediaReferencesIn(String(attr(ofType(spans, 'generation')[0]!, 'input')));
      expect(refs.map((r) => r.type)).toEqual(['image/png']);
      expect(local.server.media.bytes(refs[0]!.id)?.equals(PNG)).toBe(true);
      expect(local.server.media.uploads).toHaveLength(1);
      expect(longestBase64Run(local.server.spans())).toBeLessThan(64);
    });
  }
});

import { ChatPromptTemplate } from '@langchain/core/prompts';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { dispatchCustomEvent } from '@langchain/core/callbacks/dispatch';
import { RunnableLambda } from '@langchain/core/runnables';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { describe, expect, it } from 'vitest';
import { CallbackHandler } from '../src/index.js';
import { attr, metadata, one, settle, initTestObs, setupObsServer } from './support.js';

const h = setupObsServer({ init: initTestObs });

/** The handler's per-run state, read directly: the leak test must see every map, not a summary. */
function internalState(handler: CallbackHandler): { runs: number; trees: number } {
  const tracker = (handler as unknown as { tracker: { runs: Map<string, unknown>; trees: Set<unknown> } }).tracker;
  return { runs: tracker.runs.size, trees: tracker.trees.size };
}

async function waitUntil(probe: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

function streamingChain() {
  return ChatPromptTemplate.fromMessages([['human', '{q}']])
    .pipe(new FakeListChatModel({ responses: ['a long streamed answer'] }))
    .pipe(new StringOutputParser());
}

async function abandonStream(chain: ReturnType<typeof streamingChain>, handler: CallbackHandler, i: number): Promise<void> {
  const stream = await chain.stream({ q: `question ${i}` }, { callbacks: [handler] });
  for await (const chunk of stream) {
    expect(chunk).toBe('a');
    break; // the consumer walks away
  }
}

describe('nothing leaks', () => {
  it('1,000 abandoned streams: the handler ends them (marked) and keeps no state; every span is exported', async () => {
    const handler = new CallbackHandler({ abandonAfterMs: 100 });
    const chain = streamingChain();
    for (let i = 0; i < 1000; i++) await abandonStream(chain, handler, i);
    expect(handler.openRuns).toBeGreaterThan(0); // abandoned, not ended by LangChain

    await waitUntil(() => handler.openRuns === 0, 5_000);
    expect(internalState(handler)).toEqual({ runs: 0, trees: 0 });

    const spans = await settle(h);
    const roots = spans.filter((s) => s.name === 'RunnableSequence');
    expect(roots).toHaveLength(1000);
    for (const root of roots) {
      expect(root.parentSpanId).toBeUndefined();
      expect(attr(root, 'obs.observation.level')).toBe('WARNING');
      expect(attr(root, 'obs.observation.status_message')).toMatch(/^abandoned: /);
      expect(metadata(root, 'abandoned')).toBe(true);
    }
    const gens = spans.filter((s) => s.name === 'FakeListChatModel');
    expect(gens).toHaveLength(1000);
    for (const g of gens) {
      expect(attr(g, 'obs.observation.level')).toBe('WARNING');
      expect(attr(g, 'obs.observation.status_message')).toMatch(/^abandoned: no LangChain callback/);
    }
    // The prompt ended normally; every span's parent is exported.
    expect(spans.filter((s) => s.name === 'ChatPromptTemplate' && attr(s, 'obs.observation.level') === undefined)).toHaveLength(1000);
    const ids = new Set(spans.map((s) => s.spanId));
    for (const s of spans) if (s.parentSpanId) expect(ids.has(s.parentSpanId)).toBe(true);
  }, 60_000);

  it('on the background queue too', async () => {
    const handler = new CallbackHandler({ abandonAfterMs: 100, background: true });
    const chain = streamingChain();
    for (let i = 0; i < 100; i++) await abandonStream(chain, handler, i);
    await waitUntil(() => handler.openRuns === 0, 5_000);
    expect(internalState(handler)).toEqual({ runs: 0, trees: 0 });
    const spans = await settle(h);
    expect(spans.filter((s) => s.name === 'RunnableSequence' && metadata(s, 'abandoned') === true)).toHaveLength(100);
  });

  it('a stream abandoned inside a run that ends is ended abandonAfterParentEndMs after that run', async () => {
    const handler = new CallbackHandler({ abandonAfterParentEndMs: 150 });
    const model = new FakeListChatModel({ responses: ['first words then more'] });
    const peek = RunnableLambda.from(async (q: string, config) => {
      for await (const chunk of await model.stream(q, config)) return String(chunk.content);
      return '';
    }).withConfig({ runName: 'peek' });
    expect(await peek.invoke('go', { callbacks: [handler] })).toBe('f');
    // The model run outlives its root: kept (it could still end normally) until the grace is over.
    expect(internalState(handler)).toEqual({ runs: 2, trees: 1 });
    await waitUntil(() => handler.openRuns === 0, 5_000);
    expect(internalState(handler)).toEqual({ runs: 0, trees: 0 });
    const spans = await settle(h);
    const gen = spans.find((s) => s.name === 'FakeListChatModel')!;
    const root = spans.find((s) => s.name === 'peek')!;
    expect(attr(gen, 'obs.observation.status_message')).toBe('abandoned: its root run ended and it had no callback for 150 ms');
    expect(gen.parentSpanId).toBe(root.spanId);
    expect(BigInt(gen.endTimeUnixNano)).toBeLessThanOrEqual(BigInt(root.endTimeUnixNano) + 50_000_000n);
  });

  it('a run that only dispatches custom events is active, not abandoned', async () => {
    const handler = new CallbackHandler({ abandonAfterMs: 100 });
    const step = RunnableLambda.from(async (x: string, config) => {
      for (let i = 0; i < 6; i++) {
        await new Promise((r) => setTimeout(r, 40));
        await dispatchCustomEvent('progress', { i }, config);
      }
      return x;
    }).withConfig({ runName: 'slow-step' });
    await step.invoke('x', { callbacks: [handler] });
    const spans = await settle(h);
    const root = one(spans, 'slow-step');
    expect(root.durationMs).toBeGreaterThanOrEqual(200);
    expect(attr(root, 'obs.observation.level')).toBeUndefined();
    expect(metadata(root, 'abandoned')).toBeUndefined();
    expect(spans.filter((s) => s.name === 'progress' && s.parentSpanId === root.spanId)).toHaveLength(6);
  });

  it('open runs are capped: past maxOpenRuns the oldest run tree is ended as abandoned', async () => {
    const handler = new CallbackHandler({ maxOpenRuns: 30, abandonAfterMs: 60_000 });
    const chain = streamingChain();
    for (let i = 0; i < 50; i++) {
      await abandonStream(chain, handler, i);
      expect(handler.openRuns).toBeLessThanOrEqual(30);
    }
    const spans = await settle(h);
    const evicted = spans.filter((s) => s.name === 'RunnableSequence');
    expect(evicted.length).toBeGreaterThanOrEqual(40);
    for (const s of evicted) expect(attr(s, 'obs.observation.status_message')).toBe('abandoned: more than 30 runs were open');
  });
});

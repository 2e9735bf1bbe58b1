import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { describe, expect, it } from 'vitest';
import { CallbackHandler } from '../src/index.js';
import { one, settle, initTestObs, setupObsServer } from './support.js';

const h = setupObsServer({ init: initTestObs });

/** Another background handler whose callbacks take 25 ms: LangChain's shared queue falls behind. */
class SlowHandler extends BaseCallbackHandler {
  name = 'slow';
  constructor() {
    super();
    this.awaitHandlers = false;
  }
  override async handleChainStart(): Promise<void> {
    await new Promise((r) => setTimeout(r, 25));
  }
}

function chain() {
  return ChatPromptTemplate.fromMessages([['human', '{q}']])
    .pipe(new FakeListChatModel({ responses: ['ok'], sleep: 10 }))
    .pipe(new StringOutputParser());
}

const ms = (ns: bigint) => Number(ns / 1_000_000n);

describe('run times are LangChain’s, not the queue’s', () => {
  it('start times are taken where LangChain starts the run even when the background queue is 100 ms behind', async () => {
    const handler = new CallbackHandler({ background: true });
    const before = Date.now();
    await chain().invoke({ q: 'x' }, { callbacks: [new SlowHandler(), handler] });
    const resolved = Date.now();
    const spans = await settle(h);
    // The queue only reached our callbacks after the slow handler's 4 x 25 ms.
    expect(Date.now() - before).toBeGreaterThanOrEqual(90);
    const root = one(spans, 'RunnableSequence');
    const gen = one(spans, 'FakeListChatModel');
    // Every run started before invoke() resolved, although the queue handled their start
    // callbacks 25 to 100 ms later.
    expect(spans).toHaveLength(4);
    for (const s of spans) {
      expect(ms(s.startTimeUnixNano), s.name).toBeGreaterThanOrEqual(before - 1);
      expect(ms(s.startTimeUnixNano), s.name).toBeLessThanOrEqual(resolved + 1);
    }
    expect(root.parentSpanId).toBeUndefined();
    expect(gen.parentSpanId).toBe(root.spanId);
    expect(handler.openRuns).toBe(0);
  });

  it('inline (default): every run ends before invoke() resolves, and children lie within their parent', async () => {
    const handler = new CallbackHandler();
    const before = Date.now();
    await chain().invoke({ q: 'x' }, { callbacks: [new SlowHandler(), handler] });
    const resolved = Date.now();
    const spans = await settle(h);
    const root = one(spans, 'RunnableSequence');
    expect(ms(root.startTimeUnixNano)).toBeGreaterThanOrEqual(before - 1);
    for (const s of spans) {
      expect(ms(s.endTimeUnixNano), s.name).toBeLessThanOrEqual(resolved);
      if (s !== root) {
        expect(s.startTimeUnixNano >= root.startTimeUnixNano).toBe(true);
        expect(s.endTimeUnixNano <= root.endTimeUnixNano).toBe(true);
      }
    }
    // The model slept 10 ms: its observation says so.
    expect(one(spans, 'FakeListChatModel').durationMs).toBeGreaterThanOrEqual(9);
  });
});

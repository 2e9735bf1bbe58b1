import { RunnableLambda } from '@langchain/core/runnables';
import { DynamicTool } from '@langchain/core/tools';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { Command, END, MemorySaver, MessagesAnnotation, START, StateGraph, interrupt } from '@langchain/langgraph';
import type { DecodedSpan } from '@obs/local-server';
import { describe, expect, it } from 'vitest';
import { CallbackHandler } from '../src/index.js';
import { FailingStreamModel } from './fakes.js';
import { attr, json, metadata, one, settle, initTestObs, setupObsServer } from './support.js';

const h = setupObsServer({ init: initTestObs });

function expectError(span: DecodedSpan, message: string): void {
  expect(attr(span, 'obs.observation.level'), span.name).toBe('ERROR');
  expect(attr(span, 'obs.observation.status_message')).toBe(message);
  expect(span.status.code).toBe(2);
  const ev = span.events.find((e) => e.name === 'exception');
  expect(ev, `exception event on ${span.name}`).toBeDefined();
  expect(ev!.attributes['exception.message']).toBe(message);
}

describe('errors', () => {
  it('a chain error: level ERROR, status message, OTel status ERROR, exception event; no state left', async () => {
    const handler = new CallbackHandler();
    const chain = RunnableLambda.from((x: string) => x)
      .pipe(
        RunnableLambda.from(() => {
          throw new Error('database unavailable');
        }).withConfig({ runName: 'load' }),
      )
      .withConfig({ runName: 'pipeline' });
    await expect(chain.invoke('q', { callbacks: [handler] })).rejects.toThrow('database unavailable');
    const spans = await settle(h);
    expectError(one(spans, 'load'), 'database unavailable');
    expectError(one(spans, 'pipeline'), 'database unavailable');
    expect(handler.openRuns).toBe(0);
  });

  it('an LLM error after the first streamed token keeps the partial output and the first-token time', async () => {
    for (const background of [false, true]) {
      h.server.reset();
      const handler = new CallbackHandler({ background });
      const model = new FailingStreamModel(['Hel', 'lo'], 1);
      const seen: string[] = [];
      await expect(
        (async () => {
          for await (const chunk of await model.stream('hi', { callbacks: [handler] })) seen.push(String(chunk.content));
        })(),
      ).rejects.toThrow('provider connection reset');
      expect(seen).toEqual(['Hel']);
      const spans = await settle(h);
      const gen = one(spans, 'FailingStreamModel');
      expectError(gen, 'provider connection reset');
      expect(attr(gen, 'obs.observation.output')).toBe('Hel');
      expect(attr(gen, 'obs.observation.completion_start_time')).toBeTypeOf('string');
      expect(handler.openRuns).toBe(0);
    }
  });

  it('a tool error is an error on the tool and its parent', async () => {
    const handler = new CallbackHandler();
    const tool = new DynamicTool({
      name: 'flaky',
      description: 'fails',
      func: async () => {
        throw new Error('tool timed out');
      },
    });
    const agentStep = RunnableLambda.from(async (q: string, config) => tool.invoke(q, config)).withConfig({ runName: 'step' });
    await expect(agentStep.invoke('x', { callbacks: [handler] })).rejects.toThrow('tool timed out');
    const spans = await settle(h);
    expectError(one(spans, 'flaky'), 'tool timed out');
    expect(one(spans, 'flaky').parentSpanId).toBe(one(spans, 'step').spanId);
    expect(handler.openRuns).toBe(0);
  });
});

describe('LangGraph', () => {
  it('names node observations after the node, keeps step metadata, and an interrupt is not an error', async () => {
    const handler = new CallbackHandler();
    const model = new FakeListChatModel({ responses: ['Draft: refund approved'] });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('draft', async (s) => ({ messages: [await model.invoke(s.messages)] }))
      .addNode('review', async () => {
        const decision = interrupt({ question: 'Send this reply?' });
        return { messages: [{ role: 'user', content: String(decision) }] };
      })
      .addEdge(START, 'draft')
      .addEdge('draft', 'review')
      .addEdge('review', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { callbacks: [handler], configurable: { thread_id: 'thread-1' } };

    const first = await graph.invoke({ messages: [{ role: 'user', content: 'Refund order 17?' }] }, config);
    expect(first.messages).toHaveLength(2);
    let spans = await settle(h);

    const root = one(spans, 'LangGraph');
    expect(root.parentSpanId).toBeUndefined();
    expect(attr(root, 'obs.observation.level')).toBeUndefined();
    const draft = one(spans, 'draft');
    expect(draft.parentSpanId).toBe(root.spanId);
    expect(metadata(draft, 'langgraph_node')).toBe('draft');
    expect(metadata(draft, 'langgraph_step')).toBe(1);
    expect(metadata(draft, 'langgraph_triggers')).toEqual(['branch:to:draft']);
    const gen = one(spans, 'FakeListChatModel');
    expect(gen.parentSpanId).toBe(draft.spanId);
    // Step metadata belongs to the node, not repeated on what runs inside it.
    expect(metadata(gen, 'langgraph_step')).toBeUndefined();

    const review = one(spans, 'review');
    expect(attr(review, 'obs.observation.level')).toBeUndefined();
    expect(review.status.code).not.toBe(2);
    expect(review.events.find((e) => e.name === 'exception')).toBeUndefined();
    expect(attr(review, 'obs.observation.status_message')).toBe('interrupted');
    expect(metadata(review, 'interrupted')).toBe(true);
    expect(JSON.stringify(metadata(review, 'interrupts'))).toContain('Send this reply?');
    // LangGraph's own plumbing nodes are kept but at DEBUG level.
    expect(attr(one(spans, '__start__'), 'obs.observation.level')).toBe('DEBUG');
    expect(handler.openRuns).toBe(0);

    h.server.reset();
    const resumed = await graph.invoke(new Command({ resume: 'yes' }), config);
    expect(resumed.messages.at(-1)?.content).toBe('yes');
    spans = await settle(h);
    const review2 = one(spans, 'review');
    expect(attr(review2, 'obs.observation.level')).toBeUndefined();
    expect(json(review2, 'output')).toEqual({ messages: [{ role: 'user', content: 'yes' }] });
    expect(handler.openRuns).toBe(0);
  });
});

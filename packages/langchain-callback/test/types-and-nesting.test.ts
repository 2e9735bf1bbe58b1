import { ChatPromptTemplate } from '@langchain/core/prompts';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { RunnableLambda, RunnableSequence } from '@langchain/core/runnables';
import { DynamicStructuredTool, DynamicTool } from '@langchain/core/tools';
import { Document } from '@langchain/core/documents';
import { FakeListChatModel, FakeRetriever } from '@langchain/core/utils/testing';
import { startActiveObservation } from '@obs/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CallbackHandler } from '../src/index.js';
import { attr, childrenOf, json, metadata, one, settle, type, initTestObs, setupObsServer } from './support.js';

const h = setupObsServer({ init: initTestObs });

describe('observation types and nesting', () => {
  it('types a chain, its prompt, model and parser and nests them by parent run', async () => {
    const handler = new CallbackHandler();
    const chain = ChatPromptTemplate.fromMessages([
      ['system', 'You answer in one word.'],
      ['human', '{question}'],
    ])
      .pipe(new FakeListChatModel({ responses: ['Paris'] }))
      .pipe(new StringOutputParser());

    const answer = await chain.invoke({ question: 'Capital of France?' }, { callbacks: [handler] });
    expect(answer).toBe('Paris');
    const spans = await settle(h);

    const root = one(spans, 'RunnableSequence');
    expect(root.parentSpanId).toBeUndefined();
    expect(type(root)).toBe('chain');
    expect(json(root, 'input')).toEqual({ question: 'Capital of France?' });
    expect(json(root, 'output')).toBe('Paris');

    const children = childrenOf(spans, root);
    expect(children.map((s) => s.name).sort()).toEqual(['ChatPromptTemplate', 'FakeListChatModel', 'StrOutputParser']);
    const gen = one(spans, 'FakeListChatModel');
    expect(type(gen)).toBe('generation');
    expect(json(gen, 'input')).toEqual([
      { role: 'system', content: 'You answer in one word.' },
      { role: 'user', content: 'Capital of France?' },
    ]);
    expect(json(gen, 'output')).toEqual({ role: 'assistant', content: 'Paris' });
    expect(type(one(spans, 'ChatPromptTemplate'))).toBe('chain');
    expect(json(one(spans, 'ChatPromptTemplate'), 'output')).toHaveLength(2);
    // Children start after and end before their parent, in LangChain's own order.
    for (const c of children) {
      expect(c.startTimeUnixNano >= root.startTimeUnixNano).toBe(true);
      expect(c.endTimeUnixNano <= root.endTimeUnixNano).toBe(true);
    }
    const [p, m, s] = ['ChatPromptTemplate', 'FakeListChatModel', 'StrOutputParser'].map((n) => one(spans, n));
    expect(p!.endTimeUnixNano <= m!.startTimeUnixNano).toBe(true);
    expect(m!.endTimeUnixNano <= s!.startTimeUnixNano).toBe(true);
    expect(handler.openRuns).toBe(0);
  });

  it('types tools (DynamicTool, structured) and retrievers, inside a custom runnable', async () => {
    const handler = new CallbackHandler();
    const weather = new DynamicTool({ name: 'weather', description: 'weather in a city', func: async (city) => `sunny in ${city}` });
    const add = new DynamicStructuredTool({
      name: 'add',
      description: 'adds',
      schema: z.object({ a: z.number(), b: z.number() }),
      func: async ({ a, b }) => String(a + b),
    });
    const retriever = new FakeRetriever({ output: [new Document({ pageContent: 'Paris is in France', metadata: { source: 'atlas' } })] });
    const flow = RunnableLambda.from(async (q: string, config) => {
      const docs = await retriever.invoke(q, config);
      const w = await weather.invoke('Paris', config);
      const sum = await add.invoke({ a: 2, b: 3 }, config);
      return `${docs.length} ${w} ${sum}`;
    }).withConfig({ runName: 'research' });

    await flow.invoke('where is Paris', { callbacks: [handler] });
    const spans = await settle(h);

    const root = one(spans, 'research');
    expect(type(root)).toBe('chain');
    const r = one(spans, 'FakeRetriever');
    expect(type(r)).toBe('retriever');
    expect(r.parentSpanId).toBe(root.spanId);
    expect(json(r, 'input')).toBe('where is Paris');
    expect(json(r, 'output')).toEqual([{ pageContent: 'Paris is in France', metadata: { source: 'atlas' } }]);
    const w = one(spans, 'weather');
    expect(type(w)).toBe('tool');
    expect(w.parentSpanId).toBe(root.spanId);
    expect(json(w, 'input')).toBe('Paris');
    expect(json(w, 'output')).toBe('sunny in Paris');
    const a = one(spans, 'add');
    expect(type(a)).toBe('tool');
    expect(json(a, 'input')).toEqual({ a: 2, b: 3 });
    expect(attr(a, 'obs.observation.output')).toBe('5');
  });

  it('names chains that look like agents as agents, and keeps run tags and own metadata', async () => {
    const handler = new CallbackHandler();
    const inner = RunnableLambda.from((x: string) => x.toUpperCase()).withConfig({ runName: 'shout', metadata: { step: 'inner' } });
    const agent = RunnableSequence.from([RunnableLambda.from((x: string) => x.trim()), inner]).withConfig({ runName: 'SupportAgent' });
    await agent.invoke('  hi ', { callbacks: [handler], metadata: { customer: 'acme' }, tags: ['beta'] });
    const spans = await settle(h);
    const root = one(spans, 'SupportAgent');
    expect(type(root)).toBe('agent');
    expect(metadata(root, 'customer')).toBe('acme');
    const shout = one(spans, 'shout');
    expect(type(shout)).toBe('chain');
    // Own metadata is kept; metadata inherited unchanged from the parent run is not repeated.
    expect(metadata(shout, 'step')).toBe('inner');
    expect(metadata(shout, 'customer')).toBeUndefined();
  });

  it('a root run nests under the span active where it was invoked', async () => {
    const handler = new CallbackHandler();
    const model = new FakeListChatModel({ responses: ['ok'] });
    let requestSpanId = '';
    await startActiveObservation('POST /chat', async (obs) => {
      requestSpanId = obs.id;
      await model.invoke('hello', { callbacks: [handler] });
    });
    const spans = await settle(h);
    const gen = one(spans, 'FakeListChatModel');
    expect(gen.parentSpanId).toBe(requestSpanId);
    expect(gen.traceId).toBe(one(spans, 'POST /chat').traceId);
  });
});

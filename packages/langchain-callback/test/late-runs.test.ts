/**
 * Runs that outlive their root (issue 13): late ends close normally with output and usage, late
 * starts attach to their LangChain parent, positional tags never become trace tags, abandoned
 * streams are visible shortly after their enclosing observation ends, createAgent roots are
 * agents, LangGraph Command/Send outputs are plain messages, model secrets are redacted.
 */
import { AIMessage } from '@langchain/core/messages';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { RunnableLambda, RunnableMap } from '@langchain/core/runnables';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { Command, MessagesAnnotation, Send, START, StateGraph } from '@langchain/langgraph';
import { createAgent } from 'langchain';
import { startActiveObservation } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { describe, expect, it } from 'vitest';
import { CallbackHandler } from '../src/index.js';
import { UsageChatModel } from './fakes.js';
import { attr, json, one, settle, type, initTestObs, setupObsServer } from './support.js';

const h = setupObsServer({ init: initTestObs });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A provider-like model that takes `ms` and ignores abort signals, as many clients do. */
class SlowModel extends UsageChatModel {
  constructor(private readonly ms: number) {
    super(new AIMessage({ content: 'late answer', usage_metadata: { input_tokens: 7, output_tokens: 3, total_tokens: 10 } }));
  }
  override async _generate(messages: Parameters<UsageChatModel['_generate']>[0]) {
    await sleep(this.ms);
    return super._generate(messages);
  }
}

/** The three ways the handler runs: inline, on LangChain's background queue, inside an enclosing observation. */
const MODES = [
  { name: 'inline', background: false, enclosed: false },
  { name: 'background queue', background: true, enclosed: false },
  { name: 'inside an observation', background: false, enclosed: true },
] as const;

async function run<T>(mode: (typeof MODES)[number], fn: () => Promise<T>): Promise<T> {
  return mode.enclosed ? startActiveObservation('request', fn) : fn();
}

function expectOneTree(spans: DecodedSpan[]): void {
  expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
  const ids = new Set(spans.map((s) => s.spanId));
  expect(spans.filter((s) => !s.parentSpanId || !ids.has(s.parentSpanId))).toHaveLength(1);
  for (const s of spans) {
    expect(attr(s, 'obs.observation.status_message') ?? '').not.toMatch(/abandoned/);
    const tags = (attr(s, 'obs.trace.tags') as string[] | undefined) ?? [];
    expect(tags.filter((t) => /^(seq|graph):step:|^map:key:/.test(t))).toEqual([]);
  }
}

describe('runs that outlive their root', () => {
  for (const mode of MODES) {
    it(`RunnableMap: branch A throws while branch B's model runs; B ends late with output and usage (${mode.name})`, async () => {
      const handler = new CallbackHandler({ background: mode.background });
      const failing = RunnableLambda.from(async () => {
        await sleep(10);
        throw new Error('branch A failed');
      }).withConfig({ runName: 'branch-a' });
      const slow = ChatPromptTemplate.fromMessages([['human', '{q}']])
        .pipe(new SlowModel(120))
        .withConfig({ runName: 'branch-b' });
      const map = RunnableMap.from({ a: failing, b: slow }).withConfig({ runName: 'fan-out' });
      await expect(run(mode, () => map.invoke({ q: 'hi' }, { callbacks: [handler] }))).rejects.toThrow('branch A failed');
      await sleep(250); // the model finishes after its root failed
      const spans = await settle(h);
      expect(handler.openRuns).toBe(0);
      expectOneTree(spans);
      const gen = one(spans, 'SlowModel');
      expect(type(gen)).toBe('generation');
      expect(json(gen, 'output')).toMatchObject({ role: 'assistant', content: 'late answer' });
      expect(json(gen, 'usage_details')).toMatchObject({ input: 7, output: 3, total: 10 });
      expect(one(spans, 'branch-b').spanId).toBe(gen.parentSpanId);
      expect(attr(one(spans, 'fan-out'), 'obs.observation.level')).toBe('ERROR');
    });

    it(`LangGraph: a node aborted by a failing sibling whose model ignores the signal ends late with usage, under its node (${mode.name})`, async () => {
      const handler = new CallbackHandler({ background: mode.background });
      const model = new SlowModel(120);
      const graph = new StateGraph(MessagesAnnotation)
        .addNode('failing', async () => {
          await sleep(10);
          throw new Error('sibling failed');
        })
        .addNode('agent', async (state) => ({ messages: [await model.invoke(state.messages)] }))
        .addEdge(START, 'failing')
        .addEdge(START, 'agent')
        .compile();
      await expect(
        run(mode, () => graph.invoke({ messages: [{ role: 'user', content: 'hi' }] }, { callbacks: [handler] })),
      ).rejects.toThrow('sibling failed');
      await sleep(250);
      const spans = await settle(h);
      expect(handler.openRuns).toBe(0);
      expectOneTree(spans);
      const gen = one(spans, 'SlowModel');
      expect(json(gen, 'usage_details')).toMatchObject({ total: 10 });
      const node = one(spans, 'agent');
      expect(gen.parentSpanId).toBe(node.spanId);
      expect(type(node)).toBe('agent');
    });

    it(`a lambda starts a side chain with its config and does not await it: the side chain nests under the lambda (${mode.name})`, async () => {
      const handler = new CallbackHandler({ background: mode.background });
      const side = ChatPromptTemplate.fromMessages([['human', '{q}']])
        .pipe(new SlowModel(40))
        .pipe(new StringOutputParser())
        .withConfig({ runName: 'side-chain' });
      const starter = RunnableLambda.from((x: { q: string }, config) => {
        void side.invoke(x, config);
        return 'started';
      }).withConfig({ runName: 'starter' });
      const root = RunnableLambda.from(async (x: { q: string }, config) => starter.invoke(x, config)).withConfig({ runName: 'root' });
      expect(await run(mode, () => root.invoke({ q: 'hi' }, { callbacks: [handler] }))).toBe('started');
      await sleep(200);
      const spans = await settle(h);
      expect(handler.openRuns).toBe(0);
      expectOneTree(spans);
      expect(one(spans, 'side-chain').parentSpanId).toBe(one(spans, 'starter').spanId);
      expect(json(one(spans, 'SlowModel'), 'usage_details')).toMatchObject({ total: 10 });
      expect(json(one(spans, 'side-chain'), 'output')).toBe('late answer');
    });

    it(`invoke() with an AbortSignal that fires while the model runs: the model's run still ends with its usage (${mode.name})`, async () => {
      const handler = new CallbackHandler({ background: mode.background });
      const model = new SlowModel(120);
      // The app honours the signal; the model client does not (it runs to the end and is billed).
      const chain = RunnableLambda.from(async (x: { q: string }, config) =>
        Promise.race([
          model.invoke(x.q, config),
          new Promise((_, reject) => config.signal?.addEventListener('abort', () => reject(config.signal?.reason), { once: true })),
        ]),
      ).withConfig({ runName: 'aborted-chain' });
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('user went away')), 30);
      await expect(run(mode, () => chain.invoke({ q: 'hi' }, { callbacks: [handler], signal: controller.signal }))).rejects.toThrow();
      await sleep(250);
      const spans = await settle(h);
      expect(handler.openRuns).toBe(0);
      expectOneTree(spans);
      const gen = one(spans, 'SlowModel');
      expect(gen.parentSpanId).toBe(one(spans, 'aborted-chain').spanId);
      expect(json(gen, 'usage_details')).toMatchObject({ total: 10 });
    });
  }

  it('a stream broken off inside an observation is exported abandoned shortly after that observation ends', async () => {
    const handler = new CallbackHandler({ abandonAfterParentEndMs: 100 });
    const chain = ChatPromptTemplate.fromMessages([['human', '{q}']])
      .pipe(new FakeListChatModel({ responses: ['a long streamed answer'] }))
      .pipe(new StringOutputParser());
    await startActiveObservation('request', async () => {
      for await (const _chunk of await chain.stream({ q: 'hi' }, { callbacks: [handler] })) break;
    });
    expect(handler.openRuns).toBeGreaterThan(0);
    const deadline = Date.now() + 3_000;
    while (handler.openRuns > 0 && Date.now() < deadline) await sleep(20);
    expect(handler.openRuns).toBe(0);
    const spans = await settle(h);
    const request = one(spans, 'request');
    const root = one(spans, 'RunnableSequence');
    expect(root.parentSpanId).toBe(request.spanId);
    expect(attr(root, 'obs.observation.status_message')).toMatch(/^abandoned: the observation that enclosed it ended/);
    const ids = new Set(spans.map((s) => s.spanId));
    for (const s of spans) if (s.parentSpanId) expect(ids.has(s.parentSpanId)).toBe(true);
  });
});

describe('what a run is and what it carries', () => {
  it("langchain v1's createAgent: its root (named after the agent) is an agent, its nodes are not; no positional trace tags", async () => {
    for (const background of [false, true]) {
      h.server.reset();
      const handler = new CallbackHandler({ background });
      const agent = createAgent({ model: new FakeListChatModel({ responses: ['hello'] }), tools: [], name: 'support' });
      const result = await agent.invoke({ messages: [{ role: 'user', content: 'hi' }] }, { callbacks: [handler] });
      expect(result.messages.at(-1)?.content).toBe('hello');
      const spans = await settle(h);
      expect(handler.openRuns).toBe(0);
      const root = one(spans, 'support');
      expect(root.parentSpanId).toBeUndefined();
      expect(type(root)).toBe('agent');
      expect(type(one(spans, 'model_request'))).toBe('chain');
      expect(type(one(spans, 'FakeListChatModel'))).toBe('generation');
      for (const s of spans) expect((attr(s, 'obs.trace.tags') as string[] | undefined) ?? []).toEqual([]);
    }
  });

  it("a root with createAgent's metadata (ls_integration, lc_agent_name) is an agent; its descendants are not", async () => {
    const handler = new CallbackHandler();
    const step = RunnableLambda.from((x: string) => `${x}!`).withConfig({ runName: 'model_request' });
    const agent = RunnableLambda.from(async (x: string, config) => step.invoke(x, config)).withConfig({
      runName: 'support-agent',
      metadata: { ls_integration: 'langchain_create_agent', lc_agent_name: 'support-agent' },
    });
    await agent.invoke('hi', { callbacks: [handler] });
    const spans = await settle(h);
    expect(type(one(spans, 'support-agent'))).toBe('agent');
    expect(type(one(spans, 'model_request'))).toBe('chain');
  });

  it('LangGraph Command and Send outputs are recorded with plain messages, not constructor JSON', async () => {
    const handler = new CallbackHandler();
    const node = RunnableLambda.from(
      () =>
        new Command({
          update: { messages: [new AIMessage({ content: 'routing', tool_calls: [{ id: 't1', name: 'lookup', args: { q: 'x' } }] })] },
          goto: [new Send('worker', { messages: [new AIMessage('task')] })],
        }),
    ).withConfig({ runName: 'router' });
    await node.invoke({}, { callbacks: [handler] });
    const spans = await settle(h);
    const out = attr(one(spans, 'router'), 'obs.observation.output') as string;
    expect(out).not.toContain('"lc":1');
    expect(JSON.parse(out)).toEqual({
      type: 'Command',
      update: { messages: [{ role: 'assistant', content: 'routing', tool_calls: [{ id: 't1', name: 'lookup', args: { q: 'x' } }] }] },
      goto: [{ type: 'Send', node: 'worker', args: { messages: [{ role: 'assistant', content: 'task' }] } }],
    });
  });

  it('model parameters and run metadata are redacted: apiKey and headers.Authorization never reach the server', async () => {
    class KeyedModel extends UsageChatModel {
      override invocationParams() {
        return { model: 'gpt-4o', temperature: 0.1, apiKey: 'sk-live-123', headers: { Authorization: 'Bearer sk-live-123' } };
      }
    }
    const handler = new CallbackHandler();
    const model = new KeyedModel(new AIMessage('ok')).withConfig({ metadata: { api_key: 'sk-live-123', team: 'support' } });
    await model.invoke('hi', { callbacks: [handler] });
    const spans = await settle(h);
    const gen = one(spans, 'KeyedModel');
    expect(json(gen, 'model.parameters')).toEqual({ temperature: 0.1, apiKey: '[REDACTED]', headers: { Authorization: '[REDACTED]' } });
    expect(attr(gen, 'obs.observation.metadata.api_key')).toBe('[REDACTED]');
    expect(attr(gen, 'obs.observation.metadata.team')).toBe('support');
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain('sk-live-123');
  });
});

import { ChatPromptTemplate } from '@langchain/core/prompts';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { DynamicTool } from '@langchain/core/tools';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { propagateAttributes, startActiveObservation } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { afterEach, describe, expect, it } from 'vitest';
import { CallbackHandler, type CallbackHandlerOptions } from '../src/index.js';
import { attr, childrenOf, json, one, settle, subtree, initTestObs, setupObsServer } from './support.js';

const h = setupObsServer({ init: initTestObs });

function chainFor(i: number) {
  // Different model latencies so the four invocations interleave and end in reverse order.
  return ChatPromptTemplate.fromMessages([['human', 'question {i}']])
    .pipe(new FakeListChatModel({ responses: [`answer ${i}`], sleep: (4 - i) * 4 }))
    .pipe(new StringOutputParser());
}

async function fourConcurrentRequests(options: CallbackHandlerOptions): Promise<{ spans: DecodedSpan[]; requestIds: string[] }> {
  const handler = new CallbackHandler(options);
  const requestIds: string[] = [];
  await Promise.all(
    [0, 1, 2, 3].map((i) =>
      startActiveObservation(`request ${i}`, async (obs) => {
        requestIds[i] = obs.id;
        const out = await chainFor(i).invoke({ i }, { callbacks: [handler] });
        expect(out).toBe(`answer ${i}`);
      }),
    ),
  );
  const spans = await settle(h);
  expect(handler.openRuns).toBe(0);
  return { spans, requestIds };
}

function expectEachUnderItsRequest(spans: DecodedSpan[], requestIds: string[]): void {
  const roots = spans.filter((s) => s.name === 'RunnableSequence');
  expect(roots).toHaveLength(4);
  for (const root of roots) {
    const i = json(root, 'input').i as number;
    const request = spans.find((s) => s.spanId === requestIds[i])!;
    expect(root.parentSpanId, `root of invocation ${i}`).toBe(request.spanId);
    expect(root.traceId).toBe(request.traceId);
    const kids = childrenOf(spans, root);
    expect(kids.map((k) => k.name).sort()).toEqual(['ChatPromptTemplate', 'FakeListChatModel', 'StrOutputParser']);
    expect(
      json(
        kids.find((k) => k.name === 'FakeListChatModel'),
        'output',
      ).content,
    ).toBe(`answer ${i}`);
  }
}

describe('parent under concurrency', () => {
  const saved = process.env['LANGCHAIN_CALLBACKS_BACKGROUND'];
  afterEach(() => {
    if (saved === undefined) delete process.env['LANGCHAIN_CALLBACKS_BACKGROUND'];
    else process.env['LANGCHAIN_CALLBACKS_BACKGROUND'] = saved;
  });

  it('LangChain defaults (background callbacks on): each root nests under its own request span', async () => {
    delete process.env['LANGCHAIN_CALLBACKS_BACKGROUND'];
    const { spans, requestIds } = await fourConcurrentRequests({});
    expectEachUnderItsRequest(spans, requestIds);
  });

  it('handler on LangChain background queue: each root still nests under its own request span', async () => {
    delete process.env['LANGCHAIN_CALLBACKS_BACKGROUND'];
    const handler = new CallbackHandler({ background: true });
    expect(handler.awaitHandlers).toBe(false);
    const { spans, requestIds } = await fourConcurrentRequests({ background: true });
    expectEachUnderItsRequest(spans, requestIds);
  });

  it('LANGCHAIN_CALLBACKS_BACKGROUND=false: each root nests under its own request span', async () => {
    process.env['LANGCHAIN_CALLBACKS_BACKGROUND'] = 'false';
    const { spans, requestIds } = await fourConcurrentRequests({});
    expectEachUnderItsRequest(spans, requestIds);
  });
});

const TRACE_OPTIONS: CallbackHandlerOptions = {
  userId: 'user-42',
  sessionId: 'session-7',
  tags: ['prod', 'chat'],
  version: 'v3',
  traceMetadata: { tenant: 'acme', plan: { tier: 'gold' } },
};

function expectTraceAttributes(spans: DecodedSpan[], expected: { userId: string; sessionId: string; tags: string[] }): void {
  expect(spans.length).toBeGreaterThan(0);
  for (const s of spans) {
    expect(attr(s, 'user.id'), s.name).toBe(expected.userId);
    expect(attr(s, 'session.id'), s.name).toBe(expected.sessionId);
    expect([...(attr(s, 'obs.trace.tags') as string[])].sort(), s.name).toEqual([...expected.tags].sort());
  }
}

describe('trace attributes reach every observation of the run tree', () => {
  for (const background of [false, true]) {
    it(`from handler options, on a chain and all its runs (background: ${background})`, async () => {
      const handler = new CallbackHandler({ ...TRACE_OPTIONS, background });
      await chainFor(1).invoke({ i: 1 }, { callbacks: [handler] });
      const spans = await settle(h);
      const tree = subtree(spans, one(spans, 'RunnableSequence'));
      expect(tree).toHaveLength(4);
      expectTraceAttributes(tree, { userId: 'user-42', sessionId: 'session-7', tags: ['prod', 'chat'] });
      for (const s of tree) {
        expect(attr(s, 'obs.trace.metadata.tenant')).toBe('acme');
        expect(attr(s, 'obs.trace.metadata.plan.tier')).toBe('gold');
        expect(attr(s, 'obs.version')).toBe('v3');
      }
    });
  }

  it('on root LLM and root tool runs (no chain)', async () => {
    const handler = new CallbackHandler(TRACE_OPTIONS);
    await new FakeListChatModel({ responses: ['hi'] }).invoke('hello', { callbacks: [handler] });
    await new DynamicTool({ name: 'lookup', description: 'd', func: async () => 'found' }).invoke('x', { callbacks: [handler] });
    const spans = await settle(h);
    const roots = [one(spans, 'FakeListChatModel'), one(spans, 'lookup')];
    expectTraceAttributes(roots, { userId: 'user-42', sessionId: 'session-7', tags: ['prod', 'chat'] });
    for (const s of roots) expect(attr(s, 'obs.trace.metadata.tenant')).toBe('acme');
  });

  it('from run metadata obsUserId / obsSessionId / obsTags, which win over the options', async () => {
    const handler = new CallbackHandler(TRACE_OPTIONS);
    await chainFor(2).invoke(
      { i: 2 },
      { callbacks: [handler], metadata: { obsUserId: 'user-from-run', obsSessionId: 'sess-from-run', obsTags: ['vip'] } },
    );
    const spans = await settle(h);
    const tree = subtree(spans, one(spans, 'RunnableSequence'));
    expectTraceAttributes(tree, { userId: 'user-from-run', sessionId: 'sess-from-run', tags: ['prod', 'chat', 'vip'] });
    // Control keys are read, not copied into observation metadata.
    for (const s of tree) expect(Object.keys(s.attributes).some((k) => k.includes('obsUserId'))).toBe(false);
  });

  it('composes with an enclosing propagateAttributes (request identify), 4 concurrent requests, background queue included', async () => {
    for (const background of [false, true]) {
      h.server.reset();
      const handler = new CallbackHandler({ sessionId: 'session-h', tags: ['handler'], background });
      const requestIds: string[] = [];
      await Promise.all(
        [0, 1, 2, 3].map((i) =>
          startActiveObservation(`request ${i}`, (req) => {
            requestIds[i] = req.id;
            return propagateAttributes({ userId: `user-${i}`, tags: ['request'], metadata: { region: `r${i}` } }, () =>
              chainFor(i).invoke({ i }, { callbacks: [handler] }),
            );
          }),
        ),
      );
      const spans = await settle(h);
      expectEachUnderItsRequest(spans, requestIds);
      for (const root of spans.filter((s) => s.name === 'RunnableSequence')) {
        const i = json(root, 'input').i as number;
        const tree = subtree(spans, root);
        expect(tree).toHaveLength(4);
        expectTraceAttributes(tree, { userId: `user-${i}`, sessionId: 'session-h', tags: ['request', 'handler'] });
        for (const s of tree) expect(attr(s, 'obs.trace.metadata.region')).toBe(`r${i}`);
      }
      // The handler's attributes are not written onto the enclosing request spans.
      for (const id of requestIds)
        expect(
          attr(
            spans.find((s) => s.spanId === id),
            'session.id',
          ),
        ).toBeUndefined();
    }
  });
});

import { Document } from '@langchain/core/documents';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { RunnableLambda } from '@langchain/core/runnables';
import { DynamicTool } from '@langchain/core/tools';
import { FakeListChatModel, FakeRetriever } from '@langchain/core/utils/testing';
import { MASK_FAILED } from '@obs/core';
import { describe, expect, it } from 'vitest';
import { CallbackHandler } from '../src/index.js';
import { attr, one, settle, initTestObs, setupObsServer } from './support.js';

const h = setupObsServer({ init: initTestObs });

const SECRET = /sk-[a-z0-9]+/g;
/** Redacts API-key-looking strings at any depth of any captured value. */
function redact({ data }: { data: unknown }): unknown {
  if (typeof data === 'string') return data.replace(SECRET, '[key]');
  if (Array.isArray(data)) return data.map((d) => redact({ data: d }));
  if (data && typeof data === 'object') return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, redact({ data: v })]));
  return data;
}

describe('masking', () => {
  it('covers inputs, outputs, metadata (flattened keys included), retrieved documents, tool calls and trace metadata', async () => {
    const handler = new CallbackHandler({ mask: redact, traceMetadata: { owner: 'sk-trace1' } });
    const retriever = new FakeRetriever({
      output: [new Document({ pageContent: 'the key is sk-doc1', metadata: { note: 'sk-docmeta1' } })],
    });
    const tool = new DynamicTool({ name: 'vault', description: 'd', func: async (q) => `found sk-tool2 for ${q}` });
    const model = new FakeListChatModel({ responses: ['use sk-out3'] });
    const flow = RunnableLambda.from(async (q: string, config) => {
      const docs = await retriever.invoke(q, config);
      await tool.invoke('sk-toolin4', config);
      await ChatPromptTemplate.fromMessages([['human', '{q}']])
        .pipe(model)
        .invoke({ q: docs[0]!.pageContent }, config);
      return 'answer sk-final5';
    }).withConfig({ runName: 'flow' });

    await flow.invoke('find sk-in6', { callbacks: [handler], metadata: { apiKey: 'sk-meta7', nested: { deep: 'sk-meta8' } } });
    const spans = await settle(h);
    expect(spans.length).toBeGreaterThanOrEqual(6);
    const everything = JSON.stringify(spans.map((s) => s.attributes));
    expect(everything).not.toMatch(/sk-[a-z0-9]+/);
    expect(everything).toContain('[key]');
    const root = one(spans, 'flow');
    expect(attr(root, 'obs.observation.input')).toBe('find [key]');
    expect(attr(root, 'obs.observation.metadata.nested.deep')).toBe('[key]');
    expect(attr(root, 'obs.trace.metadata.owner')).toBe('[key]');
    expect(attr(one(spans, 'FakeRetriever'), 'obs.observation.output')).toBe(
      JSON.stringify([{ pageContent: 'the key is [key]', metadata: { note: '[key]' } }]),
    );
  });

  it('a throwing mask masks the value fully and never breaks the run', async () => {
    const handler = new CallbackHandler({
      mask: () => {
        throw new Error('mask bug');
      },
    });
    const out = await new FakeListChatModel({ responses: ['private'] }).invoke('private input', { callbacks: [handler] });
    expect(out.content).toBe('private');
    const spans = await settle(h);
    const gen = one(spans, 'FakeListChatModel');
    expect(attr(gen, 'obs.observation.input')).toBe(MASK_FAILED);
    expect(attr(gen, 'obs.observation.output')).toBe(MASK_FAILED);
    expect(JSON.stringify(gen.attributes)).not.toContain('private');
  });
});

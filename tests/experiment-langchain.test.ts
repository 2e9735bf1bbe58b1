/**
 * Cross-package: `dataset.runExperiment` with a LangChain task traced by @obs/langchain. Every
 * run of the chain nests under its item's `experiment-item-run` root; evaluators score items,
 * a run evaluator scores the run; nothing is posted to dataset-run-items.
 */
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { initObs } from '@obs/core';
import { CallbackHandler } from '@obs/langchain';
import { setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';

const local = setupObsServer({ reset: false, init: (c) => initObs({ ...c, flushInterval: 0.05, flushOnExit: false }) });

describe('an experiment whose task is a LangChain chain', () => {
  it('nests each chain run under its item root and scores items and run', async () => {
    const client = local.handle.client;
    await client.api.datasets.create({ name: 'capitals' });
    const rows = [
      ['France', 'Paris'],
      ['Japan', 'Tokyo'],
      ['Peru', 'Lima'],
      ['Chile', 'Santiago'],
    ];
    for (const [country, capital] of rows)
      await client.dataset.createItem({ datasetName: 'capitals', input: { country }, expectedOutput: capital });
    const dataset = await client.dataset.get('capitals');

    // A managed prompt, linked to the generation through LangChain metadata.
    await client.prompt.create({
      type: 'chat',
      name: 'capital',
      labels: ['production'],
      prompt: [{ role: 'user', content: 'Capital of {{country}}?' }],
    });
    const prompt = await client.prompt.get('capital', { type: 'chat' });
    const chain = ChatPromptTemplate.fromMessages(prompt.getLangchainPrompt())
      .withConfig({ metadata: { obsPrompt: prompt } })
      .pipe(new FakeListChatModel({ responses: ['Paris', 'Tokyo', 'Lima', 'Valparaiso'] }))
      .pipe(new StringOutputParser());
    const result = await dataset.runExperiment({
      name: 'capitals',
      runName: 'capitals langchain',
      maxConcurrency: 1,
      task: (item) => chain.invoke(item.input as { country: string }, { callbacks: [new CallbackHandler()] }),
      evaluators: [({ output, expectedOutput }) => ({ name: 'exact', value: output === expectedOutput ? 1 : 0 })],
      runEvaluators: [
        ({ itemResults }) => ({
          name: 'accuracy',
          value: itemResults.filter((r) => r.evaluations[0]?.value === 1).length / itemResults.length,
        }),
      ],
    });

    expect(result.itemResults.map((r) => r.output)).toEqual(['Paris', 'Tokyo', 'Lima', 'Valparaiso']);
    for (const r of result.itemResults) {
      const spans = local.server.spansByTrace(r.traceId);
      const root = spans.find((s) => s.name === 'experiment-item-run')!;
      expect(root.attributes['obs.experiment.dataset.id']).toBe(dataset.id);
      expect(root.attributes['obs.experiment.item.id']).toBe(r.item.id);
      const chainRoot = spans.find((s) => s.parentSpanId === root.spanId && s.attributes['obs.observation.type'] === 'chain');
      expect(chainRoot, 'the chain nests under the item root').toBeDefined();
      const generation = spans.find((s) => s.attributes['obs.observation.type'] === 'generation');
      expect(generation, 'the fake model is a generation in the item trace').toBeDefined();
      expect(generation!.attributes['obs.observation.prompt.name']).toBe('capital');
      expect(generation!.attributes['obs.observation.prompt.version']).toBe(1);
      expect(generation!.attributes['obs.observation.input']).toContain(`Capital of ${(r.item.input as { country: string }).country}?`);
      expect(spans.every((s) => s === root || s.parentSpanId !== undefined)).toBe(true);
    }
    expect(local.server.scores.filter((s) => s['name'] === 'exact')).toHaveLength(4);
    expect(local.server.scores.filter((s) => s['datasetRunId'] === result.experimentId)).toEqual([
      expect.objectContaining({ name: 'accuracy', value: 0.75 }),
    ]);
    expect(local.server.requests.filter((r) => r.path.includes('dataset-run-items'))).toHaveLength(0);
    expect(result.format()).toContain('exact: avg 0.75 over 4 item(s)');
  });
});

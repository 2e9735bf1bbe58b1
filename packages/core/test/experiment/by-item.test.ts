/**
 * A run taken item by item (`startExperimentRun`, what a test runner drives), and a trace turned
 * into a dataset item (`client.dataset.createItemFromTrace`), checked on what the local obs server
 * received: items run out of order and concurrently record what `client.experiment.run` records;
 * a dataset run has the same deterministic id as `dataset.runExperiment`; without a client nothing
 * is sent and nothing warns; an item made from a trace carries the root's input and output (or
 * the corrected output) and `sourceTraceId`, and the next dataset run includes it.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startExperimentRun } from '../../src/client/experiment/start.js';
import { TRACES_PATH } from '../../src/export/otlp/otlp-exporter.js';
import { flushObsSpans } from '../../src/tracing/tracer.js';
import { startActiveObservation } from '../../src/tracing/start.js';
import { experimentForFile, lines, roots } from './harness.js';

const { server, client, logs } = await experimentForFile();

const exactMatch = ({ output, expectedOutput }: { output: unknown; expectedOutput: unknown }) => ({
  name: 'exact_match',
  value: output === expectedOutput,
});

describe('startExperimentRun: one item at a time', () => {
  it('items run out of order and at once record the same roots and scores as client.experiment.run', async () => {
    const data = [1, 2, 3, 4].map((n) => ({ input: n, expectedOutput: n * 2 }));
    const params = {
      name: 'doubling',
      task: (item: { input?: unknown }) => (item.input === 3 ? 7 : Number(item.input) * 2),
      evaluators: [exactMatch],
      runEvaluators: [({ itemResults }: { itemResults: unknown[] }) => ({ name: 'items', value: itemResults.length })],
    };
    const run = await startExperimentRun(client, { ...params, runName: 'by item' });
    const results = await Promise.all([3, 1, 0, 2].map((i) => run.runItem(data[i]!, i)));
    const result = await run.finish(results);
    const whole = await client.experiment.run({ ...params, runName: 'whole', data });

    const byRun = (name: string) => roots(server).filter((s) => s.attributes['obs.experiment.name'] === name);
    expect(byRun('by item')).toHaveLength(4);
    expect(byRun('whole')).toHaveLength(4);
    for (const s of byRun('by item')) expect(s.attributes['obs.experiment.id']).toBe(run.experimentId);
    const outputs = (name: string) =>
      byRun(name)
        .map((s) => s.attributes['obs.observation.output'])
        .sort();
    expect(outputs('by item')).toEqual(outputs('whole'));
    const scores = (traceIds: string[]) =>
      server.scores
        .filter((s) => traceIds.includes(s['traceId'] as string))
        .map((s) => s['value'])
        .sort();
    expect(scores(result.itemResults.map((r) => r.traceId))).toEqual([0, 1, 1, 1]);
    expect(scores(result.itemResults.map((r) => r.traceId))).toEqual(scores(whole.itemResults.map((r) => r.traceId)));
    expect(server.scores.filter((s) => s['datasetRunId'] === run.experimentId)).toMatchObject([{ name: 'items', value: 4 }]);
    expect(result.experimentUrl).toBe(`${server.url}/project/${server.projectId}/experiments/${run.experimentId}`);
  });

  it('on a dataset: the experiment id is the one dataset.runExperiment gives that run name', async () => {
    await client.api.datasets.create({ name: 'by-item-ds' });
    await client.dataset.createItem({ datasetName: 'by-item-ds', id: 'one', input: 1, expectedOutput: 2 });
    const dataset = await client.dataset.get('by-item-ds');
    const run = await startExperimentRun(client, { name: 'ds', runName: 'ds run', task: () => 2 }, { id: dataset.id });
    await run.finish([await run.runItem(dataset.items[0]!, 0)]);
    const expected = createHash('sha256')
      .update(JSON.stringify([server.projectId, dataset.id, 'ds run']))
      .digest('hex');
    expect(run.experimentId.replaceAll('-', '')).toBe(expected.slice(0, 32));
    const root = roots(server).find((s) => s.attributes['obs.experiment.id'] === run.experimentId)!;
    expect(root.attributes['obs.experiment.dataset.id']).toBe(dataset.id);
    expect(root.attributes['obs.experiment.item.id']).toBe('one');
  });

  it('without a client: tasks and evaluators run, nothing is sent, nothing warns; bad arguments reject', async () => {
    const before = { requests: server.requests.length, scores: server.scores.length };
    const run = await startExperimentRun(undefined, { name: 'local', task: (i) => i.input, evaluators: [exactMatch] });
    const result = await run.finish([await run.runItem({ input: 'a', expectedOutput: 'a' }, 0)]);
    await flushObsSpans();
    expect(result.itemResults[0]!.evaluations).toEqual([{ name: 'exact_match', value: true }]);
    expect(result.experimentUrl).toBeUndefined();
    expect(server.scores.length).toBe(before.scores);
    // This file's provider exports the spans; no score, project or API request is made.
    expect(server.requests.slice(before.requests).filter((r) => r.path !== TRACES_PATH)).toEqual([]);
    expect(lines(logs, 'warn')).toEqual([]);
    await expect(startExperimentRun(undefined, { name: '', task: () => 1 })).rejects.toThrow(
      'startExperimentRun: `name` must be a non-empty string',
    );
    await expect(startExperimentRun(client, { name: 'x', task: 'no' as never })).rejects.toThrow(
      'startExperimentRun: `task` must be a function',
    );
  });
});

describe('client.dataset.createItemFromTrace', () => {
  async function productionTrace(input: unknown, output: unknown): Promise<string> {
    const traceId = await startActiveObservation('support-answer', async (root) => {
      root.update({ input });
      await startActiveObservation('llm', async (gen) => gen.update({ input: 'prompt', output: 'child output' }), { asType: 'generation' });
      root.update({ output });
      return root.traceId;
    });
    await flushObsSpans();
    return traceId;
  }

  it('adds the root input and output (or the corrected output) linked by sourceTraceId; the next dataset run includes it', async () => {
    await client.api.datasets.create({ name: 'from-traces' });
    const first = await productionTrace({ question: 'How long do refunds take?' }, 'Two weeks.');
    const second = await productionTrace('Where is my order?', { answer: 'Shipped', eta: 2 });

    const corrected = await client.dataset.createItemFromTrace(first, { dataset: 'from-traces', expectedOutput: 'Refunds take 5 days.' });
    expect(corrected).toMatchObject({
      input: { question: 'How long do refunds take?' },
      expectedOutput: 'Refunds take 5 days.',
      sourceTraceId: first,
    });
    const asIs = await client.dataset.createItemFromTrace(second, { dataset: 'from-traces', metadata: { from: 'viewer' } });
    expect(asIs).toMatchObject({
      input: 'Where is my order?',
      expectedOutput: { answer: 'Shipped', eta: 2 },
      metadata: { from: 'viewer' },
      sourceTraceId: second,
    });
    const read = await client.api.datasetItems.get(corrected.id);
    expect(read.sourceTraceId).toBe(first);

    const dataset = await client.dataset.get('from-traces');
    expect(dataset.items.map((i) => i.sourceTraceId).sort()).toEqual([first, second].sort());
    const result = await dataset.runExperiment({ name: 'from traces', task: (item) => item.expectedOutput, evaluators: [exactMatch] });
    const linked = roots(server)
      .filter((s) => s.attributes['obs.experiment.id'] === result.experimentId)
      .map((s) => s.attributes['obs.experiment.item.id'])
      .sort();
    expect(linked).toEqual([corrected.id, asIs.id].sort());
  });

  it('rejects a trace the server has no observation of, and bad arguments, creating nothing', async () => {
    const posts = () => server.requests.filter((r) => r.method === 'POST' && r.path === '/api/public/dataset-items').length;
    const before = posts();
    await expect(client.dataset.createItemFromTrace('0'.repeat(32), { dataset: 'from-traces' })).rejects.toThrow(
      `dataset.createItemFromTrace: the server has no observation of trace ${'0'.repeat(32)} (not sent yet, or deleted)`,
    );
    await expect(client.dataset.createItemFromTrace('', { dataset: 'x' })).rejects.toThrow(TypeError);
    await expect(client.dataset.createItemFromTrace('abc', {} as never)).rejects.toThrow(
      '`dataset` (the dataset name) must be a non-empty string',
    );
    expect(posts()).toBe(before);
  });
});

/**
 * The experiment runner on local data, checked on what the local obs server received: item
 * roots and their attributes, nesting of the task's spans, evaluator observations, item and run
 * scores, no dataset-run-items call, and a result that resolves only after everything arrived.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startActiveObservation } from '../../src/tracing/start.js';
import { datasetRunItemCalls, experimentForFile, lines, roots } from './harness.js';

const { server, client, logs } = await experimentForFile();

const data = [
  { input: { q: 'capital of France?' }, expectedOutput: 'Paris', metadata: { topic: 'geo' } },
  { input: { q: 'capital of Spain?' }, expectedOutput: 'Madrid', metadata: { topic: 'geo' } },
  { input: { q: '2 + 2?' }, expectedOutput: '4' },
];
const answers: Record<string, string> = { 'capital of France?': 'Paris', 'capital of Spain?': 'Barcelona', '2 + 2?': '4' };

const exactMatch = ({ output, expectedOutput }: { output: unknown; expectedOutput: unknown }) => ({
  name: 'exact_match',
  value: output === expectedOutput ? 1 : 0,
});
const lengthAndFlag = ({ output }: { output: unknown }) => [
  { name: 'length', value: String(output).length, comment: 'characters' },
  { name: 'non_empty', value: String(output).length > 0 },
];

describe('client.experiment.run on local data', () => {
  it('one root per item with the wire-contract attributes, the task nested inside, scores per item and per run', async () => {
    const result = await client.experiment.run({
      name: 'capitals',
      runName: 'capitals run 1',
      description: 'geography questions',
      metadata: { model: 'fake', temperature: 0 },
      data,
      task: async (item) =>
        startActiveObservation(
          'answer',
          async (gen) => {
            gen.update({ input: item.input, output: answers[(item.input as { q: string }).q] });
            return answers[(item.input as { q: string }).q];
          },
          { asType: 'generation' },
        ),
      evaluators: [exactMatch, lengthAndFlag],
      runEvaluators: [
        function averageExactMatch({ itemResults }) {
          const values = itemResults.flatMap((r) => r.evaluations.filter((e) => e.name === 'exact_match').map((e) => Number(e.value)));
          return { name: 'avg_exact_match', value: values.reduce((a, b) => a + b, 0) / values.length };
        },
      ],
    });

    // Resolved only after flushing: no waiting here.
    const items = roots(server);
    expect(items).toHaveLength(3);
    expect(result.itemResults.map((r) => r.output)).toEqual(['Paris', 'Barcelona', '4']);
    expect(result.runName).toBe('capitals run 1');
    expect(result.experimentId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(result.experimentUrl).toBe(`${server.url}/project/${server.projectId}/experiments/${result.experimentId}`);

    for (const [i, r] of result.itemResults.entries()) {
      const root = items.find((s) => s.traceId === r.traceId)!;
      expect(root, `root of item ${i}`).toBeDefined();
      expect(root.parentSpanId).toBeUndefined();
      const a = root.attributes;
      expect(a['obs.experiment.id']).toBe(result.experimentId);
      expect(a['obs.experiment.name']).toBe('capitals run 1');
      expect(a['obs.experiment.description']).toBe('geography questions');
      expect(JSON.parse(a['obs.experiment.metadata'] as string)).toEqual({ model: 'fake', temperature: 0 });
      expect(a['obs.experiment.item.expected_output']).toBe(data[i]!.expectedOutput);
      expect(a['obs.experiment.item.root_observation_id']).toBe(root.spanId);
      if (data[i]!.metadata) expect(JSON.parse(a['obs.experiment.item.metadata'] as string)).toEqual(data[i]!.metadata);
      else expect(a).not.toHaveProperty('obs.experiment.item.metadata');
      // Local data: no dataset, no dataset item, no version.
      for (const k of ['obs.experiment.dataset.id', 'obs.experiment.item.id', 'obs.experiment.item.version'])
        expect(a).not.toHaveProperty(k);
      expect(JSON.parse(a['obs.observation.input'] as string)).toEqual(data[i]!.input);
      expect(a['obs.observation.output']).toBe(r.output);

      const trace = server.spansByTrace(r.traceId);
      // root + the task's generation + one evaluator observation per evaluator
      expect(trace.map((s) => s.name).sort()).toEqual(['answer', 'exactMatch', 'experiment-item-run', 'lengthAndFlag']);
      for (const s of trace.filter((t) => t !== root)) expect(s.parentSpanId).toBe(root.spanId);
      expect(trace.find((s) => s.name === 'answer')!.attributes['obs.observation.type']).toBe('generation');
      for (const name of ['exactMatch', 'lengthAndFlag'])
        expect(trace.find((s) => s.name === name)!.attributes['obs.observation.type']).toBe('evaluator');

      const scores = server.scores.filter((s) => s['traceId'] === r.traceId);
      expect(scores.map((s) => s['name']).sort()).toEqual(['exact_match', 'length', 'non_empty']);
      expect(r.evaluations).toHaveLength(3);
    }
    // 3 scores per item, 1 run score, nothing else; no duplicates.
    expect(server.scores).toHaveLength(10);
    expect(new Set(server.scores.map((s) => s['id'])).size).toBe(10);
    const runScores = server.scores.filter((s) => s['datasetRunId'] !== undefined);
    expect(runScores).toHaveLength(1);
    expect(runScores[0]).toMatchObject({ datasetRunId: result.experimentId, name: 'avg_exact_match', value: 2 / 3 });
    expect(runScores[0]).not.toHaveProperty('traceId');
    expect(server.scores.find((s) => s['name'] === 'non_empty')).toMatchObject({ value: 1, dataType: 'BOOLEAN' });
    expect(result.runEvaluations).toEqual([{ name: 'avg_exact_match', value: 2 / 3 }]);
    expect(datasetRunItemCalls(server)).toBe(0);

    const text = result.format();
    expect(text).toContain('run "capitals run 1"');
    expect(text).toContain('Items: 3 run, 3 succeeded, 0 failed');
    expect(text).toContain('exact_match: avg 0.667 over 3 item(s)');
    expect(text).toContain('avg_exact_match: 0.667');
    expect(text).toContain(result.experimentUrl!);
  });

  it('each item is its own trace even when the run starts inside an active observation', async () => {
    const result = await startActiveObservation('request', () =>
      client.experiment.run({ name: 'inside', data: [{ input: 1 }, { input: 2 }], task: (i) => i.input }),
    );
    const [request] = await server.waitFor(() => (server.spansByName('request').length ? server.spansByName('request') : undefined));
    expect(roots(server)).toHaveLength(2);
    for (const root of roots(server)) {
      expect(root.parentSpanId).toBeUndefined();
      expect(root.traceId).not.toBe(request.traceId);
    }
    expect(new Set(result.itemResults.map((r) => r.traceId)).size).toBe(2);
  });

  it('local-data runs get a random experiment id and a default run name', async () => {
    const a = await client.experiment.run({ name: 'same', data: [{ input: 1 }], task: (i) => i.input });
    const b = await client.experiment.run({ name: 'same', data: [{ input: 1 }], task: (i) => i.input });
    expect(a.experimentId).not.toBe(b.experimentId);
    expect(a.runName).toMatch(/^same - \d{4}-\d{2}-\d{2}T/);
    expect(
      roots(server)
        .map((s) => s.attributes['obs.experiment.id'])
        .sort(),
    ).toEqual([a.experimentId, b.experimentId].sort());
  });

  it('a task that throws marks its item ERROR and the run goes on; a throwing evaluator is logged by name and skipped', async () => {
    const result = await client.experiment.run({
      name: 'failures',
      data: [{ input: 'a' }, { input: 'boom' }, { input: 'c' }],
      task: (item) => {
        if (item.input === 'boom') throw new Error('task exploded');
        return String(item.input).toUpperCase();
      },
      evaluators: [
        function brokenJudge() {
          throw new Error('judge unavailable');
        },
        () => ({ name: 'ok', value: 1 }),
      ],
      runEvaluators: [
        function brokenRunJudge() {
          throw new Error('run judge down');
        },
      ],
    });
    expect(result.itemResults.map((r) => r.output)).toEqual(['A', undefined, 'C']);
    expect((result.itemResults[1]!.error as Error).message).toBe('task exploded');
    expect(result.itemResults[0]!.error).toBeUndefined();
    const failed = roots(server).find((s) => s.traceId === result.itemResults[1]!.traceId)!;
    expect(failed.attributes['obs.observation.level']).toBe('ERROR');
    expect(failed.attributes['obs.observation.status_message']).toBe('task exploded');
    expect(failed.status.code).toBe(2);
    for (const i of [0, 2]) {
      const root = roots(server).find((s) => s.traceId === result.itemResults[i]!.traceId)!;
      expect(root.attributes['obs.observation.level']).toBeUndefined();
    }
    // The second evaluator still scored the two good items; the failed item got no evaluators.
    expect(server.scores.map((s) => [s['name'], s['traceId']])).toEqual(
      expect.arrayContaining([
        ['ok', result.itemResults[0]!.traceId],
        ['ok', result.itemResults[2]!.traceId],
      ]),
    );
    expect(server.scores).toHaveLength(2);
    const errors = lines(logs, 'error');
    expect(errors.filter((l) => l.startsWith('experiment evaluator "brokenJudge" failed on item'))).toHaveLength(2);
    expect(errors.filter((l) => l.includes('judge unavailable'))).toHaveLength(2);
    expect(
      errors.filter((l) => l === 'experiment run evaluator "brokenRunJudge" failed: run judge down; its scores are skipped'),
    ).toHaveLength(1);
    // The failing evaluator is recorded as an ERROR evaluator observation.
    const judge = server.spansByName('brokenJudge');
    expect(judge).toHaveLength(2);
    for (const j of judge) expect(j.attributes['obs.observation.level']).toBe('ERROR');
    expect(result.format()).toContain('Items: 3 run, 2 succeeded, 1 failed');
    expect(result.format()).toContain('task exploded');
  });

  it.each([
    [{ data: [], task: () => 1 }, /experiment\.run: `name` must be a non-empty string/],
    [{ name: ' ', data: [], task: () => 1 }, /`name` must be a non-empty string/],
    [{ name: 'x', data: [] }, /`task` must be a function/],
    [{ name: 'x', data: 'items', task: () => 1 }, /`data` must be an array of items/],
    [{ name: 'x', data: [], task: () => 1, maxConcurrency: 0 }, /`maxConcurrency` must be an integer >= 1, got 0/],
    [{ name: 'x', data: [], task: () => 1, maxConcurrency: 1.5 }, /`maxConcurrency` must be an integer >= 1/],
    [{ name: 'x', data: [], task: () => 1, evaluators: [42] }, /`evaluators` must be an array of functions/],
  ])('rejects invalid arguments at once: %o', async (params, message) => {
    let ran = 0;
    const wrapped = {
      ...params,
      task: 'task' in params && typeof params.task === 'function' ? () => ran++ : (params as { task?: unknown }).task,
    };
    await expect(client.experiment.run(wrapped as never)).rejects.toThrow(TypeError);
    await expect(client.experiment.run(wrapped as never)).rejects.toThrow(message);
    expect(ran).toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it('never has more than maxConcurrency tasks in flight (3, and the default 50)', async () => {
    for (const [maxConcurrency, items, expected] of [
      [3, 20, 3],
      [undefined, 120, 50],
    ] as const) {
      let inFlight = 0;
      let peak = 0;
      let started = 0;
      const result = await client.experiment.run({
        name: 'bounded',
        data: Array.from({ length: items }, (_, i) => ({ input: i })),
        maxConcurrency,
        task: async (item) => {
          started++;
          peak = Math.max(peak, ++inFlight);
          await new Promise((r) => setTimeout(r, 2));
          inFlight--;
          return item.input;
        },
      });
      expect(peak).toBe(expected);
      expect(started).toBe(items);
      expect(result.itemResults.map((r) => r.output)).toEqual(Array.from({ length: items }, (_, i) => i));
    }
  });

  it('reports progress: onProgress after each item, plain lines off a terminal, one updating line on one', async () => {
    const seen: Array<[number, number, number]> = [];
    const plain: string[] = [];
    const quiet = client.experiment.progressStream;
    client.experiment.progressStream = { write: (s: string) => void plain.push(s), isTTY: false };
    try {
      await client.experiment.run({
        name: 'progress',
        runName: 'p1',
        data: Array.from({ length: 20 }, (_, i) => ({ input: i })),
        maxConcurrency: 1,
        showProgress: true,
        task: (item) => {
          if (item.input === 5) throw new Error('x');
          return item.input;
        },
        onProgress: ({ completed, failed, total }) => void seen.push([completed, failed, total]),
      });
      expect(seen).toHaveLength(20);
      expect(seen.map((s) => s[0])).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(seen.at(-1)).toEqual([20, 1, 20]);
      // Every 10% (2 items) of 20: 10 lines, each a whole line.
      expect(plain).toHaveLength(10);
      expect(plain[0]).toBe('experiment "p1": 2/20 items\n');
      expect(plain.at(-1)).toBe('experiment "p1": 20/20 items, 1 failed\n');

      const tty: string[] = [];
      client.experiment.progressStream = { write: (s: string) => void tty.push(s), isTTY: true };
      await client.experiment.run({
        name: 'progress',
        runName: 'p2',
        data: [{ input: 1 }, { input: 2 }, { input: 3 }],
        maxConcurrency: 1,
        showProgress: true,
        task: (i) => i.input,
      });
      expect(tty).toEqual([
        '\r\x1b[2Kexperiment "p2": 1/3 items',
        '\r\x1b[2Kexperiment "p2": 2/3 items',
        '\r\x1b[2Kexperiment "p2": 3/3 items\n',
      ]);

      // Long runs (10 items or more) show progress by default; shorter ones only when asked.
      plain.length = 0;
      client.experiment.progressStream = { write: (s: string) => void plain.push(s), isTTY: false };
      await client.experiment.run({
        name: 'progress',
        runName: 'p3',
        data: Array.from({ length: 9 }, (_, i) => ({ input: i })),
        task: (i) => i.input,
      });
      expect(plain).toEqual([]);
      await client.experiment.run({
        name: 'progress',
        runName: 'p4',
        data: Array.from({ length: 10 }, (_, i) => ({ input: i })),
        task: (i) => i.input,
      });
      expect(plain).toHaveLength(10);
      plain.length = 0;
      await client.experiment.run({
        name: 'progress',
        data: Array.from({ length: 30 }, (_, i) => ({ input: i })),
        showProgress: false,
        task: (i) => i.input,
      });
      expect(plain).toEqual([]);
    } finally {
      client.experiment.progressStream = quiet;
    }
  });
});

describe('dataset.runExperiment', () => {
  async function seedDataset(name: string, count: number) {
    await client.api.datasets.create({ name });
    for (let i = 0; i < count; i++) {
      await client.dataset.createItem({
        datasetName: name,
        id: `${name}-item-${i}`,
        input: { n: i },
        expectedOutput: i * 2,
        metadata: { i },
      });
    }
  }

  it('records dataset and item ids, and the experiment id is SHA-256 of (project, dataset, run name)', async () => {
    await seedDataset('doubling', 3);
    const dataset = await client.dataset.get('doubling');
    expect(dataset.items).toHaveLength(3);
    const run = () =>
      dataset.runExperiment({
        name: 'doubling',
        runName: 'doubling v1',
        task: (item) => (item.input as { n: number }).n * 2,
        evaluators: [({ output, expectedOutput }) => ({ name: 'correct', value: output === expectedOutput ? 1 : 0 })],
        runEvaluators: [({ itemResults }) => ({ name: 'items', value: itemResults.length })],
      });
    const first = await run();
    const again = await run();
    const other = await dataset.runExperiment({ name: 'doubling', runName: 'doubling v2', task: () => 0 });

    const hex = createHash('sha256')
      .update(JSON.stringify([server.projectId, dataset.id, 'doubling v1']))
      .digest('hex');
    expect(first.experimentId).toBe(
      `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`,
    );
    expect(again.experimentId).toBe(first.experimentId);
    expect(other.experimentId).not.toBe(first.experimentId);

    const firstRoots = roots(server).filter((s) => first.itemResults.some((r) => r.traceId === s.traceId));
    expect(firstRoots).toHaveLength(3);
    for (const root of firstRoots) {
      const a = root.attributes;
      const result = first.itemResults.find((r) => r.traceId === root.traceId)!;
      expect(a['obs.experiment.dataset.id']).toBe(dataset.id);
      expect(a['obs.experiment.item.id']).toBe(result.item.id);
      expect(a['obs.experiment.item.expected_output']).toBe(JSON.stringify(result.item.expectedOutput));
      expect(a).not.toHaveProperty('obs.experiment.item.version');
    }
    expect(server.scores.filter((s) => s['name'] === 'correct' && s['value'] === 1)).toHaveLength(6);
    expect(server.scores.filter((s) => s['datasetRunId'] === first.experimentId)).toHaveLength(2);
    expect(datasetRunItemCalls(server)).toBe(0);

    // The server lists the experiment and its items from the spans alone.
    const items = await client.api.experiments.listItems({ experimentName: 'doubling v1' });
    expect(items.data.map((i) => i['datasetItemId']).sort()).toEqual([
      'doubling-item-0',
      'doubling-item-0',
      'doubling-item-1',
      'doubling-item-1',
      'doubling-item-2',
      'doubling-item-2',
    ]);
    const experiments = await client.api.experiments.list({ datasetId: dataset.id });
    expect(experiments.data.map((e) => e.id).sort()).toEqual([first.experimentId, other.experimentId].sort());
  });

  it('dataset.get(name, { version }) sends the version; the run records obs.experiment.item.version on every item', async () => {
    await seedDataset('versioned', 2);
    await new Promise((r) => setTimeout(r, 5));
    const version = new Date();
    await new Promise((r) => setTimeout(r, 5));
    await client.dataset.createItem({ datasetName: 'versioned', id: 'versioned-item-0', input: { n: 100 } });
    await client.dataset.createItem({ datasetName: 'versioned', id: 'late', input: { n: 7 } });

    const current = await client.dataset.get('versioned');
    expect(current.items.map((i) => i.input)).toEqual([{ n: 100 }, { n: 1 }, { n: 7 }]);
    server.requests.length = 0;
    const old = await client.dataset.get('versioned', { version });
    expect(old.version).toBe(version.toISOString());
    expect(old.items.map((i) => i.input)).toEqual([{ n: 0 }, { n: 1 }]);
    const listCalls = server.requests.filter((r) => r.path === '/api/public/dataset-items');
    expect(listCalls.map((r) => r.query['version'])).toEqual([version.toISOString()]);

    const result = await old.runExperiment({ name: 'versioned', task: (item) => item.input });
    const itemRoots = roots(server).filter((s) => result.itemResults.some((r) => r.traceId === s.traceId));
    expect(itemRoots).toHaveLength(2);
    for (const root of itemRoots) expect(root.attributes['obs.experiment.item.version']).toBe(version.toISOString());
  });

  it('dataset.get pages until the server meta says the last page: 250 items behind a 100-item page cap', async () => {
    await client.api.datasets.create({ name: 'big' });
    await Promise.all(Array.from({ length: 250 }, (_, i) => client.dataset.createItem({ datasetName: 'big', id: `big-${i}`, input: i })));
    server.requests.length = 0;
    const dataset = await client.dataset.get('big', { fetchItemsPageSize: 500 });
    expect(dataset.items).toHaveLength(250);
    expect(new Set(dataset.items.map((i) => i.id)).size).toBe(250);
    const pages = server.requests.filter((r) => r.path === '/api/public/dataset-items');
    expect(pages.map((r) => r.query['page'])).toEqual(['1', '2', '3']);
    expect(pages.map((r) => r.query['limit'])).toEqual(['500', '500', '500']);
  });
});

/**
 * Type test (compiled by test/types/types.test.ts, never run): everyday calls that must compile.
 */
import { ObsBrowserClient } from '../../src/browser/index.js';
import {
  ObsApiError,
  ObsApiTimeoutError,
  ObsClient,
  type CreateScoresResponse,
  type Dataset,
  type DatasetItem,
  type ExperimentItem,
  type ExperimentResult,
  type ChatPromptClient,
  type TextPromptClient,
  cursorItems,
} from '../../src/client/index.js';
import { initObs, ObsSpanProcessor } from '../../src/index.js';

export async function validUsage(): Promise<void> {
  const client = new ObsClient({ publicKey: 'pk', secretKey: 'sk', baseUrl: 'http://x', flushAt: 50, flushInterval: 2, timeout: 10 });
  new ObsClient();

  client.score.create({
    id: 's1',
    traceId: 't',
    observationId: 'o',
    name: 'n',
    value: 1,
    dataType: 'NUMERIC',
    comment: 'c',
    metadata: { a: 1 },
    configId: 'c',
    environment: 'e',
  });
  client.score.create({ sessionId: 's', name: 'n', value: 'good' });
  client.score.observation({ id: 's', traceId: 't' }, { name: 'n', value: 1 });
  client.score.trace({ traceId: 't' }, { name: 'n', value: 'x', dataType: 'CATEGORICAL' });
  client.score.activeObservation({ name: 'n', value: 1 });
  client.score.activeTrace({ name: 'n', value: 0, dataType: 'BOOLEAN' });
  await client.score.flush();
  await client.score.flush({ timeoutMs: 500 });
  await client.flush();
  await client.flush({ timeoutMs: 500 });
  await client.shutdown();
  await client.shutdown({ timeoutMs: 2000 });
  const handle = initObs({ shutdownTimeout: 5, outageReportInterval: 60 });
  await handle.flush();
  await handle.flush({ timeoutMs: 1000 });
  await handle.shutdown({ timeoutMs: 3000 });
  const delivered: boolean = await new ObsSpanProcessor().flush({ timeoutMs: 1000 });
  void delivered;
  new ObsClient({ shutdownTimeout: 5, outageReportInterval: 10 });

  const res: CreateScoresResponse = await client.api.scores.create([{ traceId: 't', name: 'n', value: 1 }]);
  if ('rejected' in res) {
    const first: string | undefined = res.errors[0]?.message;
    void first;
  }
  await client.api.scores.delete('s');
  const scores = await client.api.scores.getMany({ traceId: 't', id: 's', fields: 'subject' });
  void scores.data[0]?.id;

  const obs = await client.api.observations.getMany({
    traceId: 't',
    sessionId: 's',
    fields: 'core,io',
    filter: [{ type: 'string', column: 'name', operator: '=', value: 'x' }],
  });
  const raw: string | null | undefined = obs.data[0]?.input;
  void raw;
  await client.api.observations.getMany({ fields: ['core', 'trace_context'] });
  await client.api.metrics.metrics({ query: '{}' });

  await client.api.experiments.list({ datasetId: 'd', fromStartTime: new Date() });
  let cursor: string | undefined;
  const traceIds: string[] = [];
  do {
    const page = await client.api.experiments.listItems({ datasetId: 'd', experimentName: 'e', cursor });
    traceIds.push(...page.data.map((i: ExperimentItem) => i.traceId));
    cursor = page.meta.cursor ?? undefined;
  } while (cursor);
  await client.api.trace.deleteMultiple({ traceIds });
  await client.api.trace.delete('t', {}, { maxRetries: 0 });

  await client.api.datasets.create({ name: 'd' });
  await client.api.datasets.list();
  await client.api.datasetItems.get('i', {}, { timeoutInSeconds: 1 });
  await client.api.media.get('m');
  const health = await client.api.health.health();
  void health.status;

  const prompt = await client.prompt.get('p', { label: 'production' });
  void prompt.version;
  await client.prompt.create({ name: 'p', type: 'chat', prompt: [{ role: 'user', content: 'hi' }] });
  await client.prompt.update({ name: 'p', version: 1, newLabels: ['production'] });

  const dataset: Dataset = await client.dataset.get('d');
  const items: DatasetItem[] = dataset.items;
  void [dataset.id, dataset.createdAt, items];
  await client.dataset.createItem({ datasetName: 'd', input: 1, expectedOutput: 2 });
  await client.media.resolveReferences({ obj: { a: 'x' }, resolveWith: 'base64DataUri' });

  // Experiments (contract 4.6), run-level scores, deletion, cursor paging.
  const run: ExperimentResult<DatasetItem> = await dataset.runExperiment({
    name: 'n',
    runName: 'r',
    datasetVersion: new Date(),
    task: (item) => item.input,
    evaluators: [({ output, expectedOutput }) => ({ name: 'exact', value: output === expectedOutput })],
    runEvaluators: [({ itemResults }) => [{ name: 'count', value: itemResults.length, dataType: 'NUMERIC' }]],
    maxConcurrency: 5,
    onProgress: ({ completed, total }) => void [completed, total],
  });
  const summary: string = run.format({ includeItemResults: true });
  const firstTrace: string | undefined = run.itemResults[0]?.traceId;
  void [summary, firstTrace, run.experimentId, run.experimentUrl, run.runEvaluations];
  const local = await client.experiment.run({
    name: 'local',
    data: [{ input: 'q', expectedOutput: 'a' }],
    task: async (item) => String(item.input),
  });
  void local.itemResults[0]?.error;
  const deleted = await client.experiment.delete({ experimentName: 'r' });
  void deleted.deletedTraceIds.length;
  client.score.create({ datasetRunId: run.experimentId, name: 'avg', value: 0.5 });
  for await (const item of cursorItems((c) => client.api.experiments.listItems({ experimentName: 'r', cursor: c }))) void item.traceId;
  await client.dataset.get('d', { version: '2026-01-01T00:00:00Z' });

  // Prompt objects: the overloads narrow by `type`.
  const text: TextPromptClient = await client.prompt.get('p', { fallback: 'Hi {{x}}', cacheTtlSeconds: 0 });
  const compiledText: string = text.compile({ x: 1 });
  const chat: ChatPromptClient = await client.prompt.get('c', { type: 'chat' });
  const compiledChat = chat.compile({ x: 1 }, { history: [{ role: 'user', content: 'hi' }] });
  const lc: Array<[string, string]> = chat.getLangchainPrompt();
  void [compiledText, compiledChat, lc, text.toJSON().isFallback, text.getLangchainPrompt()];

  const projectId: string | undefined = await client.getProjectId();
  const urls: Array<string | undefined> = [await client.getExperimentUrl('e'), await client.getTraceUrl('t')];
  void [projectId, urls];

  try {
    await client.api.datasets.get('d');
  } catch (err) {
    if (err instanceof ObsApiTimeoutError) void err.call;
    if (err instanceof ObsApiError) void [err.statusCode, err.body];
  }

  const browser = new ObsBrowserClient({ publicKey: 'pk', baseUrl: 'http://x' });
  await browser.score({ traceId: 't', name: 'feedback', value: 1 });
  await browser.score.flush();
}

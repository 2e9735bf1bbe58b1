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
} from '../../src/client/index.js';

export async function validUsage(): Promise<void> {
  const client = new ObsClient({ publicKey: 'pk', secretKey: 'sk', baseUrl: 'http://x', flushAt: 50, flushInterval: 2, timeout: 10 });
  new ObsClient();

  client.score.create({ id: 's1', traceId: 't', observationId: 'o', name: 'n', value: 1, dataType: 'NUMERIC', comment: 'c', metadata: { a: 1 }, configId: 'c', environment: 'e' });
  client.score.create({ sessionId: 's', name: 'n', value: 'good' });
  client.score.observation({ id: 's', traceId: 't' }, { name: 'n', value: 1 });
  client.score.trace({ traceId: 't' }, { name: 'n', value: 'x', dataType: 'CATEGORICAL' });
  client.score.activeObservation({ name: 'n', value: 1 });
  client.score.activeTrace({ name: 'n', value: 0, dataType: 'BOOLEAN' });
  await client.score.flush();
  await client.flush();
  await client.shutdown();

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

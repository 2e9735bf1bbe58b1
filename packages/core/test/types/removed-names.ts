/**
 * Type test (compiled by test/types/types.test.ts, never run): the names removed in major 6
 * (contract 4.5, 4.6, 7.2) are compile errors.
 */
import type { ObsClient } from '../../src/client/index.js';

export async function removedNames(client: ObsClient): Promise<void> {
  // The 16 client aliases of contract 4.6.
  // @ts-expect-error removed: prompt.get
  await client.getPrompt('p');
  // @ts-expect-error removed: prompt.create
  await client.createPrompt({ name: 'p', prompt: 'x' });
  // @ts-expect-error removed: prompt.update
  await client.updatePrompt({ name: 'p', version: 1, newLabels: [] });
  // @ts-expect-error removed: dataset.get
  await client.getDataset('d');
  // @ts-expect-error removed: dataset.createItem
  await client.createDatasetItem({ datasetName: 'd' });
  // @ts-expect-error removed: media.resolveReferences
  await client.resolveMediaReferences({ obj: {}, resolveWith: 'base64DataUri' });
  // @ts-expect-error removed: api.datasets.create
  await client.createDataset({ name: 'd' });
  // @ts-expect-error removed: api.datasetItems.get
  await client.getDatasetItem('i');
  // @ts-expect-error removed: api.media.get
  await client.fetchMedia('m');
  // @ts-expect-error removed: api.observations.getMany with traceId
  await client.fetchTrace('t');
  // @ts-expect-error removed: api.observations.getMany
  await client.fetchTraces();
  // @ts-expect-error removed: api.observations.getMany with a filter
  await client.fetchObservation('o');
  // @ts-expect-error removed: api.observations.getMany
  await client.fetchObservations();
  // @ts-expect-error removed: api.observations.getMany with sessionId
  await client.fetchSessions();
  // @ts-expect-error removed: api.experiments.list and listItems
  await client.getDatasetRun('d', 'r');
  // @ts-expect-error removed: api.experiments.list
  await client.getDatasetRuns('d');

  // Removed namespaces.
  // @ts-expect-error removed: api.legacy
  await client.api.legacy.scoreV1.create({});
  // @ts-expect-error removed: api.scoresV3
  await client.api.scoresV3.getManyV3({});
  // @ts-expect-error removed: api.sessions
  await client.api.sessions.list();
  // @ts-expect-error removed: api.datasetRunItems
  await client.api.datasetRunItems.create({});

  // Removed methods.
  // @ts-expect-error removed: trace.get
  await client.api.trace.get('t');
  // @ts-expect-error removed: trace.list
  await client.api.trace.list();
  // @ts-expect-error removed: datasets.getRun
  await client.api.datasets.getRun('d', 'r');
  // @ts-expect-error removed: datasets.getRuns
  await client.api.datasets.getRuns('d');
  // @ts-expect-error removed: datasets.deleteRun
  await client.api.datasets.deleteRun('d', 'r');
  // @ts-expect-error removed: scores.getById
  await client.api.scores.getById('s');
  // @ts-expect-error v2 filter name replaced by `id`
  await client.api.scores.getMany({ scoreIds: ['s'] });

  // scores.create takes an array only, and its answer has no id (contract 7.2).
  // @ts-expect-error a single score object
  await client.api.scores.create({ traceId: 't', name: 'n', value: 1 });
  const res = await client.api.scores.create([{ traceId: 't', name: 'n', value: 1 }]);
  // @ts-expect-error the create answer carries no id
  void res.id;

  // Score manager input is typed.
  // @ts-expect-error value must be a number or a string
  client.score.create({ traceId: 't', name: 'n', value: true });
  // @ts-expect-error name is required
  client.score.create({ traceId: 't', value: 1 });
  // @ts-expect-error the observation supplies the target
  client.score.observation({ id: 's', traceId: 't' }, { name: 'n', value: 1, traceId: 'other' });
  // @ts-expect-error dataType is one of NUMERIC, BOOLEAN, CATEGORICAL
  client.score.create({ traceId: 't', name: 'n', value: 1, dataType: 'PERCENT' });
}

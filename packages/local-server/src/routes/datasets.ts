/**
 * The dataset routes, with versions: every change of an item is kept with its time, so
 * `GET /api/public/dataset-items?version=<ISO time>` answers the items as they were then.
 */
import { randomUUID } from 'node:crypto';
import { answer, objectBody, refuse } from '../http/answer.js';
import { numberedPage } from '../model/paging.js';
import type { DatasetStore, StoredDataset, StoredDatasetItem } from '../stores/types.js';
import type { ApiRoute } from './api-route.js';

const DATASETS = '/api/public/v2/datasets';
const ITEMS = '/api/public/dataset-items';

/** Datasets (create, list, read by name) and their items (upsert, list at a version, read, delete). */
export function datasetRoutes(store: DatasetStore): ApiRoute[] {
  return [
    { methods: ['POST'], path: DATASETS, handle: ({ json }) => createDataset(store, json) },
    { methods: ['GET'], path: DATASETS, handle: ({ query }) => answer(200, numberedPage(store.datasets(), query)) },
    {
      methods: ['GET'],
      path: `${DATASETS}/:name`,
      handle: (_record, { name }) => {
        const dataset = store.dataset(name!);
        return dataset ? answer(200, dataset) : refuse(404, `dataset ${JSON.stringify(name)} not found`);
      },
    },
    { methods: ['POST'], path: ITEMS, handle: ({ json }) => upsertItem(store, json) },
    { methods: ['GET'], path: ITEMS, handle: ({ query }) => listItems(store, query) },
    {
      methods: ['GET', 'DELETE'],
      path: `${ITEMS}/:id`,
      handle: ({ method }, { id }) => {
        const at = Date.now();
        const current = store.itemAt(id!, at);
        if (!current) return refuse(404, `dataset item ${JSON.stringify(id)} not found`);
        if (method === 'GET') return answer(200, current);
        store.saveItemRevision(id!, at, null);
        return answer(200, { message: 'Dataset item deleted' });
      },
    },
  ];
}

function createDataset(store: DatasetStore, json: unknown) {
  const body = objectBody(json);
  const name = body?.['name'];
  if (typeof name !== 'string' || name.trim() === '') return refuse(400, 'name is required and must be a non-empty string');
  const now = new Date().toISOString();
  const existing = store.dataset(name);
  const dataset: StoredDataset = {
    id: existing?.id ?? randomUUID(),
    name,
    description: typeof body!['description'] === 'string' ? (body!['description'] as string) : (existing?.description ?? null),
    metadata: body!['metadata'] ?? existing?.metadata ?? null,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  store.saveDataset(dataset);
  return answer(200, dataset);
}

/** Creates or updates an item (`id` given and known: a new revision of it); also the viewer's "add to dataset". */
export function upsertItem(store: DatasetStore, json: unknown) {
  const body = objectBody(json);
  const datasetName = body?.['datasetName'];
  if (typeof datasetName !== 'string') return refuse(400, 'datasetName is required');
  const dataset = store.dataset(datasetName);
  if (!dataset) return refuse(404, `dataset ${JSON.stringify(datasetName)} not found`);
  const id = typeof body!['id'] === 'string' && body!['id'] !== '' ? (body!['id'] as string) : randomUUID();
  const at = Date.now();
  const previous = store.itemAt(id, at);
  const item: StoredDatasetItem = {
    id,
    datasetId: dataset.id,
    datasetName,
    input: body!['input'] ?? previous?.input ?? null,
    expectedOutput: body!['expectedOutput'] ?? previous?.expectedOutput ?? null,
    metadata: body!['metadata'] ?? previous?.metadata ?? null,
    status: typeof body!['status'] === 'string' ? (body!['status'] as string) : 'ACTIVE',
    sourceTraceId: idOr(body!['sourceTraceId'], previous?.sourceTraceId),
    sourceObservationId: idOr(body!['sourceObservationId'], previous?.sourceObservationId),
    createdAt: previous?.createdAt ?? new Date(at).toISOString(),
    updatedAt: new Date(at).toISOString(),
  };
  store.saveItemRevision(id, at, item);
  return answer(200, item);
}

function idOr(value: unknown, previous: string | null | undefined): string | null {
  return typeof value === 'string' && value !== '' ? value : (previous ?? null);
}

function listItems(store: DatasetStore, query: Record<string, string>) {
  let at = Date.now();
  if (query['version'] !== undefined && query['version'] !== '') {
    at = Date.parse(query['version']);
    if (Number.isNaN(at)) return refuse(400, `version must be an ISO 8601 time, got ${JSON.stringify(query['version'])}`);
  }
  return answer(200, numberedPage(store.itemsAt(at, query['datasetName'] || undefined), query));
}

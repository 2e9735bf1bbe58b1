/**
 * Datasets and dataset items of the local server, with versions: every change of an item is kept
 * with its time, so `GET /api/public/dataset-items?version=<ISO time>` answers the items as they
 * were then.
 */
import { randomUUID } from 'node:crypto';
import { answer, decodeSegment, objectBody, refuse, type ApiAnswer } from './api-answer.js';
import { numberedPage } from './paging.js';
import type { RecordedRequest } from './types.js';

/** A dataset as the server answers it. */
export interface StoredDataset {
  id: string;
  name: string;
  description: string | null;
  metadata: unknown;
  createdAt: string;
  updatedAt: string;
}

/** A dataset item as the server answers it. */
export interface StoredDatasetItem {
  id: string;
  datasetId: string;
  datasetName: string;
  input: unknown;
  expectedOutput: unknown;
  metadata: unknown;
  status: string;
  createdAt: string;
  updatedAt: string;
}

interface Revision {
  at: number;
  /** `null`: deleted at `at`. */
  item: StoredDatasetItem | null;
}

const DATASETS = '/api/public/v2/datasets';
const ITEMS = '/api/public/dataset-items';

/** Datasets and their item histories. */
export class DatasetStore {
  private readonly datasets = new Map<string, StoredDataset>();
  /** Item id -> its revisions, oldest first. */
  private readonly items = new Map<string, Revision[]>();

  /** Answers the dataset routes; `undefined` for any other path. */
  route(record: RecordedRequest): ApiAnswer | undefined {
    const { method, path } = record;
    if (path === DATASETS) {
      if (method === 'POST') return this.createDataset(record.json);
      if (method === 'GET') return answer(200, numberedPage([...this.datasets.values()], record.query));
      return undefined;
    }
    const datasetName = path.startsWith(`${DATASETS}/`) ? path.slice(DATASETS.length + 1) : undefined;
    if (datasetName !== undefined && !datasetName.includes('/') && method === 'GET') {
      const dataset = this.datasets.get(decodeSegment(datasetName));
      return dataset ? answer(200, dataset) : refuse(404, `dataset ${JSON.stringify(decodeSegment(datasetName))} not found`);
    }
    if (path === ITEMS) {
      if (method === 'POST') return this.upsertItem(record.json);
      if (method === 'GET') return this.listItems(record.query);
      return undefined;
    }
    const itemId = path.startsWith(`${ITEMS}/`) ? decodeSegment(path.slice(ITEMS.length + 1)) : undefined;
    if (itemId !== undefined) {
      const current = this.itemAt(itemId, Date.now());
      if (!current) return refuse(404, `dataset item ${JSON.stringify(itemId)} not found`);
      if (method === 'GET') return answer(200, current);
      if (method === 'DELETE') {
        this.items.get(itemId)!.push({ at: Date.now(), item: null });
        return answer(200, { message: 'Dataset item deleted' });
      }
    }
    return undefined;
  }

  /** Forgets every dataset and item. */
  clear(): void {
    this.datasets.clear();
    this.items.clear();
  }

  private createDataset(json: unknown): ApiAnswer {
    const body = objectBody(json);
    const name = body?.['name'];
    if (typeof name !== 'string' || name.trim() === '') return refuse(400, 'name is required and must be a non-empty string');
    const now = new Date().toISOString();
    const existing = this.datasets.get(name);
    const dataset: StoredDataset = {
      id: existing?.id ?? randomUUID(),
      name,
      description: typeof body!['description'] === 'string' ? (body!['description'] as string) : (existing?.description ?? null),
      metadata: body!['metadata'] ?? existing?.metadata ?? null,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    this.datasets.set(name, dataset);
    return answer(200, dataset);
  }

  private upsertItem(json: unknown): ApiAnswer {
    const body = objectBody(json);
    const datasetName = body?.['datasetName'];
    if (typeof datasetName !== 'string') return refuse(400, 'datasetName is required');
    const dataset = this.datasets.get(datasetName);
    if (!dataset) return refuse(404, `dataset ${JSON.stringify(datasetName)} not found`);
    const id = typeof body!['id'] === 'string' && body!['id'] !== '' ? (body!['id'] as string) : randomUUID();
    const at = Date.now();
    const previous = this.itemAt(id, at);
    const item: StoredDatasetItem = {
      id,
      datasetId: dataset.id,
      datasetName,
      input: body!['input'] ?? previous?.input ?? null,
      expectedOutput: body!['expectedOutput'] ?? previous?.expectedOutput ?? null,
      metadata: body!['metadata'] ?? previous?.metadata ?? null,
      status: typeof body!['status'] === 'string' ? (body!['status'] as string) : 'ACTIVE',
      createdAt: previous?.createdAt ?? new Date(at).toISOString(),
      updatedAt: new Date(at).toISOString(),
    };
    const history = this.items.get(id) ?? [];
    history.push({ at, item });
    this.items.set(id, history);
    return answer(200, item);
  }

  private listItems(query: Record<string, string>): ApiAnswer {
    let at = Date.now();
    if (query['version'] !== undefined && query['version'] !== '') {
      at = Date.parse(query['version']);
      if (Number.isNaN(at)) return refuse(400, `version must be an ISO 8601 time, got ${JSON.stringify(query['version'])}`);
    }
    const all: StoredDatasetItem[] = [];
    for (const id of this.items.keys()) {
      const item = this.itemAt(id, at);
      if (item && (!query['datasetName'] || item.datasetName === query['datasetName'])) all.push(item);
    }
    return answer(200, numberedPage(all, query));
  }

  /** The item as it was at `at` (ms), or `undefined` when it did not exist then. */
  private itemAt(id: string, at: number): StoredDatasetItem | undefined {
    const history = this.items.get(id);
    let found: StoredDatasetItem | null | undefined;
    for (const revision of history ?? []) if (revision.at <= at) found = revision.item;
    return found ?? undefined;
  }
}

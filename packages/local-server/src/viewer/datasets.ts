/**
 * The viewer's dataset pages: every dataset with its item and run counts, and one dataset's items
 * at a version (now, or as they were at one of its versions), its versions and its runs.
 */
import type { ObsStores, StoredDataset, StoredDatasetItem } from '../stores/types.js';
import { experimentRuns } from './experiment-runs.js';

/** A run of a dataset, as its page lists it. */
export interface DatasetRun {
  id: string;
  name: string;
  start: number;
  items: number;
  averages: Record<string, number>;
  cost: number;
}

/** Every dataset, in order of creation, with how many items it has now and how many runs used it. */
export function datasetList(stores: ObsStores): { data: Array<StoredDataset & { items: number; runs: number }> } {
  const runs = experimentRuns(stores).data;
  const now = Date.now();
  return {
    data: stores.datasets.datasets().map((d) => ({
      ...d,
      items: stores.datasets.itemsAt(now, d.name).length,
      runs: runs.filter((r) => r.datasetId === d.id).length,
    })),
  };
}

/**
 * One dataset: its items at `version` (epoch ms; default now), its versions (each time an item
 * changed, oldest first) and its runs; `undefined` when there is no such dataset.
 */
export function datasetView(
  stores: ObsStores,
  name: string,
  version?: number,
): { dataset: StoredDataset; version: number | null; items: StoredDatasetItem[]; versions: number[]; runs: DatasetRun[] } | undefined {
  const dataset = stores.datasets.dataset(name);
  if (!dataset) return undefined;
  const runs = experimentRuns(stores)
    .data.filter((r) => r.datasetId === dataset.id)
    .map((r) => ({ id: r.id, name: r.name, start: r.start, items: r.items.length, averages: r.averages, cost: r.cost }));
  return {
    dataset,
    version: version ?? null,
    items: stores.datasets.itemsAt(version ?? Date.now(), name),
    versions: stores.datasets.versions(name),
    runs,
  };
}

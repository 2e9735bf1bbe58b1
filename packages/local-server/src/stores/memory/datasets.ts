/**
 * Datasets and the revisions of their items, kept in memory.
 */
import type { DatasetStore, StoredDataset, StoredDatasetItem } from '../types.js';

interface Revision {
  at: number;
  /** `null`: deleted at `at`. */
  item: StoredDatasetItem | null;
}

/** In-memory store of datasets and item histories. */
export class MemoryDatasetStore implements DatasetStore {
  private readonly byName = new Map<string, StoredDataset>();
  /** Item id -> its revisions, oldest first. */
  private readonly items = new Map<string, Revision[]>();

  dataset(name: string): StoredDataset | undefined {
    return this.byName.get(name);
  }

  datasets(): StoredDataset[] {
    return [...this.byName.values()];
  }

  saveDataset(dataset: StoredDataset): void {
    this.byName.set(dataset.name, dataset);
  }

  saveItemRevision(id: string, at: number, item: StoredDatasetItem | null): void {
    const history = this.items.get(id) ?? [];
    history.push({ at, item });
    this.items.set(id, history);
  }

  itemAt(id: string, at: number): StoredDatasetItem | undefined {
    let found: StoredDatasetItem | null | undefined;
    for (const revision of this.items.get(id) ?? []) if (revision.at <= at) found = revision.item;
    return found ?? undefined;
  }

  itemsAt(at: number, datasetName?: string): StoredDatasetItem[] {
    const out: StoredDatasetItem[] = [];
    for (const id of this.items.keys()) {
      const item = this.itemAt(id, at);
      if (item && (!datasetName || item.datasetName === datasetName)) out.push(item);
    }
    return out;
  }

  versions(datasetName: string): number[] {
    const times = new Set<number>();
    for (const history of this.items.values()) {
      if (history.some((r) => r.item?.datasetName === datasetName)) for (const r of history) times.add(r.at);
    }
    return [...times].sort((a, b) => a - b);
  }

  clear(): void {
    this.byName.clear();
    this.items.clear();
  }
}

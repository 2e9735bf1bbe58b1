/**
 * Datasets and every revision of their items, kept in SQLite.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { DatasetStore, StoredDataset, StoredDatasetItem } from '../types.js';

type Revision = { data: string | null };

/** SQLite store of datasets and item histories. */
export class SqliteDatasetStore implements DatasetStore {
  constructor(private readonly db: DatabaseSync) {}

  dataset(name: string): StoredDataset | undefined {
    const row = this.db.prepare('SELECT data FROM datasets WHERE name = ?').get(name) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as StoredDataset) : undefined;
  }

  datasets(): StoredDataset[] {
    return (this.db.prepare('SELECT data FROM datasets ORDER BY seq').all() as Array<{ data: string }>).map(
      (r) => JSON.parse(r.data) as StoredDataset,
    );
  }

  saveDataset(dataset: StoredDataset): void {
    this.db
      .prepare('INSERT INTO datasets (name, data) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET data = excluded.data')
      .run(dataset.name, JSON.stringify(dataset));
  }

  saveItemRevision(id: string, at: number, item: StoredDatasetItem | null): void {
    // A deletion keeps the dataset its item belonged to, so the dataset's versions include it.
    const dataset = item?.datasetName ?? this.itemAt(id, Number.POSITIVE_INFINITY)?.datasetName ?? null;
    this.db
      .prepare('INSERT INTO dataset_item_revisions (item_id, dataset_name, at, data) VALUES (?, ?, ?, ?)')
      .run(id, dataset, at, item === null ? null : JSON.stringify(item));
  }

  itemAt(id: string, at: number): StoredDatasetItem | undefined {
    const row = this.db
      .prepare('SELECT data FROM dataset_item_revisions WHERE item_id = ? AND at <= ? ORDER BY seq DESC LIMIT 1')
      .get(id, at) as Revision | undefined;
    return row?.data ? (JSON.parse(row.data) as StoredDatasetItem) : undefined;
  }

  itemsAt(at: number, datasetName?: string): StoredDatasetItem[] {
    // Each item's latest revision made by `at`, items in order of their first revision.
    const rows = this.db
      .prepare(
        `SELECT (SELECT r.data FROM dataset_item_revisions r WHERE r.item_id = i.item_id AND r.at <= ? ORDER BY r.seq DESC LIMIT 1) AS data
         FROM (SELECT item_id, min(seq) AS first FROM dataset_item_revisions GROUP BY item_id) i ORDER BY i.first`,
      )
      .all(at) as Revision[];
    const items = rows.flatMap((r) => (r.data ? [JSON.parse(r.data) as StoredDatasetItem] : []));
    return datasetName ? items.filter((i) => i.datasetName === datasetName) : items;
  }

  versions(datasetName: string): number[] {
    const rows = this.db.prepare('SELECT DISTINCT at FROM dataset_item_revisions WHERE dataset_name = ? ORDER BY at').all(datasetName);
    return (rows as Array<{ at: number }>).map((r) => r.at);
  }

  clear(): void {
    this.db.exec('DELETE FROM datasets; DELETE FROM dataset_item_revisions');
  }
}

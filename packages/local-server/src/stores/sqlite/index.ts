/**
 * The SQLite stores: everything the server keeps, in one database file in a data directory, so a
 * restart keeps it all.
 */
import { randomBytes } from 'node:crypto';
import type { ObsStores } from '../types.js';
import { openDatabase } from './database.js';
import { SqliteDatasetStore } from './datasets.js';
import type { Sqlite } from './load.js';
import { SqliteMediaStore } from './media.js';
import { SqlitePromptStore } from './prompts.js';
import { SqliteScoreStore } from './scores.js';
import { SqliteSpanStore } from './spans.js';
import { SqliteTraceStore } from './traces.js';

/**
 * Opens the stores in `dir` (made when missing).
 *
 * @param warn receives the one line said when an unusable file was moved aside
 */
export function createSqliteStores(sqlite: Sqlite, dir: string, warn: (line: string) => void): ObsStores {
  const { db, file } = openDatabase(sqlite, dir, warn);
  const key = db.prepare('SELECT value FROM meta WHERE key = ?');
  let urlKey = (key.get('url-key') as { value: Uint8Array } | undefined)?.value;
  if (!urlKey) {
    urlKey = randomBytes(32);
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('url-key', urlKey);
  }
  const spans = new SqliteSpanStore(db);
  const stores: ObsStores = {
    spans,
    traces: new SqliteTraceStore(db),
    scores: new SqliteScoreStore(db),
    datasets: new SqliteDatasetStore(db),
    prompts: new SqlitePromptStore(db),
    media: new SqliteMediaStore(db),
    urlKey: Buffer.from(urlKey),
    file,
    clear() {
      spans.clear();
      stores.scores.clear();
      stores.datasets.clear();
      stores.prompts.clear();
      stores.media.clear();
    },
    close() {
      if (db.isOpen) db.close();
    },
  };
  return stores;
}

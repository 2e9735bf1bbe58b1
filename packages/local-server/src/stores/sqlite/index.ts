/**
 * The SQLite stores: everything the server keeps, in one database file in a data directory, so a
 * restart keeps it all.
 *
 * Every store is reached through a guard. When SQLite answers that the file is corrupt (the
 * disk damaged it while the server ran), the file is moved aside as at open, with one line, a
 * fresh database is opened in its place, and the call is made again on it: the request that met
 * the damage is stored in the new file rather than answered 500, and so are the ones after it.
 * A full or failing disk becomes a {@link StorageUnavailableError} (507 or 503 with one line).
 */
import { randomBytes } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { Pricing } from '../../model/cost.js';
import type { ObsStores, StorageFile } from '../types.js';
import { isUnreadable, moveAsideAtRunTime, openDatabase, storageError } from './database.js';
import { SqliteDatasetStore } from './datasets.js';
import type { Sqlite } from './load.js';
import { SqliteMediaStore } from './media.js';
import { SqlitePromptStore } from './prompts.js';
import { SqliteScoreStore } from './scores.js';
import { SqliteSpanStore } from './spans.js';
import { SqliteTraceStore } from './traces.js';
import { transaction } from './transaction.js';

/** One open database and the stores on it. */
interface Opened {
  db: DatabaseSync;
  inode: number;
  urlKey: Buffer;
  spans: SqliteSpanStore;
  traces: SqliteTraceStore;
  scores: SqliteScoreStore;
  datasets: SqliteDatasetStore;
  prompts: SqlitePromptStore;
  media: SqliteMediaStore;
  storage: StorageFile;
}

/**
 * Opens the stores in `dir` (made when missing).
 *
 * @param warn receives the one line said when an unusable file was moved aside
 * @param pricing prices the trace list's costs as spans arrive
 */
export function createSqliteStores(sqlite: Sqlite, dir: string, warn: (line: string) => void, pricing: Pricing = new Pricing()): ObsStores {
  const open = (): Opened & { file: string } => {
    const { db, file, inode } = openDatabase(sqlite, dir, warn);
    const key = db.prepare('SELECT value FROM meta WHERE key = ?');
    let urlKey = (key.get('url-key') as { value: Uint8Array } | undefined)?.value;
    if (!urlKey) {
      urlKey = randomBytes(32);
      db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('url-key', urlKey);
    }
    const pragma = (name: string) => Number((db.prepare(`PRAGMA ${name}`).get() as Record<string, number>)[name]);
    return {
      db,
      file,
      inode,
      urlKey: Buffer.from(urlKey),
      spans: new SqliteSpanStore(db, pricing),
      traces: new SqliteTraceStore(db),
      scores: new SqliteScoreStore(db),
      datasets: new SqliteDatasetStore(db),
      prompts: new SqlitePromptStore(db),
      media: new SqliteMediaStore(db),
      storage: {
        fileBytes: () => pragma('page_count') * pragma('page_size'),
        usedBytes: () => (pragma('page_count') - pragma('freelist_count')) * pragma('page_size'),
        vacuum: () => db.exec('VACUUM'),
      },
    };
  };
  let current = open();
  const { file } = current;

  /** After SQLite found the file corrupt: moves it aside, opens a fresh one; whether to try again. */
  const recover = (err: unknown): boolean => {
    if (!isUnreadable(err)) return false;
    if (current.db.isOpen) current.db.close();
    moveAsideAtRunTime(file, current.inode, err, warn);
    current = open();
    return true;
  };
  const run = <T>(call: () => T): T => {
    try {
      return call();
    } catch (err) {
      if (recover(err)) {
        try {
          return call();
        } catch (again) {
          throw storageError(again, file) ?? again;
        }
      }
      throw storageError(err, file) ?? err;
    }
  };
  const guard = <K extends keyof Opened>(name: K): Opened[K] => guarded(() => current[name] as object, run) as Opened[K];

  const stores: ObsStores = {
    spans: guard('spans'),
    traces: guard('traces'),
    scores: guard('scores'),
    datasets: guard('datasets'),
    prompts: guard('prompts'),
    media: guard('media'),
    storage: guard('storage'),
    get urlKey() {
      return current.urlKey;
    },
    file,
    deleteTraces: (traceIds) =>
      run(() =>
        transaction(current.db, () => {
          const removed = current.spans.deleteTraces(traceIds);
          current.scores.deleteForTraces(traceIds);
          current.media.deleteForTraces(traceIds);
          return removed;
        }),
      ),
    clear: () =>
      run(() => {
        current.spans.clear();
        current.scores.clear();
        current.datasets.clear();
        current.prompts.clear();
        current.media.clear();
      }),
    close() {
      if (current.db.isOpen) current.db.close();
    },
  };
  return stores;
}

/**
 * An object whose properties and methods are those of `target()` at the time of the call, each
 * read and call made through `run` (which recovers from a corrupt file and names storage failures).
 */
function guarded(target: () => object, run: <T>(call: () => T) => T): object {
  return new Proxy(
    {},
    {
      get(_shell, property) {
        const value = run(() => Reflect.get(target(), property) as unknown);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) =>
          run(() => {
            const self = target();
            return (Reflect.get(self, property) as (...a: unknown[]) => unknown).apply(self, args);
          });
      },
    },
  );
}

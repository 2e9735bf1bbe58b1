/**
 * Opens the database file in a data directory and brings its schema up to date. A file that is
 * not one (corrupted, or another program's SQLite database, or written by a newer server) is
 * never deleted and never crashes the server: it is moved aside, one line says where, and the
 * server starts with an empty database.
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { Sqlite } from './load.js';
import { APPLICATION_ID, MIGRATIONS } from './schema.js';
import { transaction } from './transaction.js';

/** The database's file name inside the data directory. */
export const DATABASE_FILE = 'obs-local.sqlite';

/** SQLite's answers for a file that is not a readable database: SQLITE_CORRUPT, SQLITE_NOTADB. */
const UNREADABLE = new Set([11, 26]);

/** Why a file cannot be used, and the word its moved-aside name carries. */
class UnusableFile extends Error {
  constructor(
    message: string,
    readonly kind: 'corrupt' | 'foreign' | 'newer',
  ) {
    super(message);
  }
}

/**
 * Opens (creating when missing) the database in `dir`, migrated to the latest schema, or to
 * `version` (tests build older files with it).
 *
 * @param warn receives the one line said when a file was moved aside
 * @throws Error when the directory cannot be made or the file cannot be opened (locked, no permission)
 */
export function openDatabase(
  sqlite: Sqlite,
  dir: string,
  warn: (line: string) => void,
  version = MIGRATIONS.length,
): { db: DatabaseSync; file: string } {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, DATABASE_FILE);
  try {
    return { db: open(sqlite, file, version), file };
  } catch (err) {
    if (!(err instanceof UnusableFile)) throw err;
    const aside = moveAside(file, err.kind);
    warn(`${file} ${err.message}: moved it to ${aside} and started with an empty database`);
    return { db: open(sqlite, file, version), file };
  }
}

function open(sqlite: Sqlite, file: string, version: number): DatabaseSync {
  const db = new sqlite.DatabaseSync(file);
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const read = (pragma: string) => Number((db.prepare(`PRAGMA ${pragma}`).get() as Record<string, unknown>)[pragma]);
    const id = read('application_id');
    const current = read('user_version');
    const tables = Number((db.prepare('SELECT count(*) AS n FROM sqlite_master').get() as { n: number }).n);
    if (id !== APPLICATION_ID && (id !== 0 || tables > 0)) {
      throw new UnusableFile('is not an obs local server database (another program wrote it)', 'foreign');
    }
    if (current > MIGRATIONS.length) {
      throw new UnusableFile(
        `has schema version ${current}, newer than this server reads (${MIGRATIONS.length}): a newer @obs/local-server wrote it`,
        'newer',
      );
    }
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL');
    for (let step = current; step < version; step++) {
      transaction(db, () => {
        MIGRATIONS[step]!(db);
        if (step === 0) db.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
        db.exec(`PRAGMA user_version = ${step + 1}`);
      });
    }
    return db;
  } catch (err) {
    if (db.isOpen) db.close();
    const code = (err as { errcode?: number }).errcode;
    if (code !== undefined && UNREADABLE.has(code & 0xff)) {
      throw new UnusableFile(`is not a readable database (${(err as { errstr?: string }).errstr ?? (err as Error).message})`, 'corrupt');
    }
    throw err;
  }
}

/** Renames the file (and SQLite's journal files beside it) to `<file>.<kind>-<time>`; returns the new name. */
function moveAside(file: string, kind: string): string {
  const aside = `${file}.${kind}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(file, aside);
  for (const suffix of ['-wal', '-shm', '-journal']) if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
  return aside;
}

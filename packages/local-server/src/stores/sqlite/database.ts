/**
 * Opens the database file in a data directory and brings its schema up to date. A file that is
 * not one (corrupted, as `PRAGMA quick_check` finds at open, or another program's SQLite
 * database, or written by a newer server) is never deleted and never crashes the server: it is
 * moved aside, one line says where, and the server starts with an empty database. What SQLite
 * answers when the disk is full or failing becomes a {@link StorageUnavailableError} naming the
 * cause; what it answers when the directory cannot be used, a sentence saying why.
 */
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { StorageUnavailableError } from '../types.js';
import type { Sqlite } from './load.js';
import { APPLICATION_ID, MIGRATIONS } from './schema.js';
import { transaction } from './transaction.js';

/** The database's file name inside the data directory. */
export const DATABASE_FILE = 'obs-local.sqlite';

/** SQLite's answers for a file that is not a readable database: SQLITE_CORRUPT, SQLITE_NOTADB. */
const UNREADABLE = new Set([11, 26]);

/** SQLite's primary result code of an error it threw, if it is one of its. */
function sqliteCode(err: unknown): number | undefined {
  const code = (err as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' ? code & 0xff : undefined;
}

/** Whether SQLite found the file's content unreadable (SQLITE_CORRUPT, SQLITE_NOTADB). */
export function isUnreadable(err: unknown): boolean {
  const code = sqliteCode(err);
  return code !== undefined && UNREADABLE.has(code);
}

/**
 * What a failure of the storage under `file` is to a client: a full disk (507), an I/O error, a
 * read-only file or a lock held too long (503); `undefined` for anything else.
 */
export function storageError(err: unknown, file: string): StorageUnavailableError | undefined {
  const code = sqliteCode(err) ?? ((err as NodeJS.ErrnoException | null)?.code === 'ENOSPC' ? 13 : undefined);
  const said = (err as { errstr?: string } | null)?.errstr ?? (err as Error | null)?.message;
  switch (code) {
    case 13:
      return new StorageUnavailableError(`cannot store in ${file}: the disk is full (${said})`, 507);
    case 10:
      return new StorageUnavailableError(`cannot read or write ${file}: the disk failed (${said})`, 503);
    case 8:
      return new StorageUnavailableError(`cannot write ${file}: it is read-only (${said})`, 503);
    case 5:
    case 6:
      return new StorageUnavailableError(`${file} is locked by another process for more than 5 s (${said})`, 503);
    default:
      return undefined;
  }
}

/** Why a data directory cannot be used, in a few words, from what opening it threw. */
export function whyUnusable(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === 'EEXIST' || code === 'ENOTDIR') return 'it is a file, not a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'no permission to create or write it';
  if (code === 'EROFS') return 'it is on a read-only file system';
  if (code === 'ENOSPC') return 'the disk is full';
  switch (sqliteCode(err)) {
    case 14:
      return `SQLite cannot open ${DATABASE_FILE} in it (is the directory writable, and ${DATABASE_FILE} a file?)`;
    case 8:
      return `${DATABASE_FILE} is read-only`;
    case 5:
    case 6:
      return `another process holds ${DATABASE_FILE} locked`;
    case 13:
      return 'the disk is full';
    case 10:
      return 'a disk I/O error';
    default:
      return (err as Error)?.message ?? String(err);
  }
}

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
 * @throws Error when the directory cannot be made or the file cannot be opened (locked, no
 *   permission): {@link whyUnusable} says why
 * @returns the database, its file, and the file's inode (a server that finds the file corrupt
 *   later moves it aside only while the path still names the file it opened)
 */
export function openDatabase(
  sqlite: Sqlite,
  dir: string,
  warn: (line: string) => void,
  version = MIGRATIONS.length,
): { db: DatabaseSync; file: string; inode: number } {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, DATABASE_FILE);
  let db: DatabaseSync;
  try {
    db = open(sqlite, file, version);
  } catch (err) {
    if (!(err instanceof UnusableFile)) throw err;
    const aside = moveAside(file, err.kind);
    warn(`${file} ${err.message}: moved it to ${aside} and started with an empty database`);
    db = open(sqlite, file, version);
  }
  return { db, file, inode: statSync(file).ino };
}

/**
 * Moves a file found corrupt while the server ran aside (unless another server sharing it did
 * already: then the path names a new file), and says so in one line.
 */
export function moveAsideAtRunTime(file: string, inode: number, cause: unknown, warn: (line: string) => void): void {
  let current: number | undefined;
  try {
    current = statSync(file).ino;
  } catch {
    current = undefined;
  }
  if (current !== inode) return;
  const aside = moveAside(file, 'corrupt');
  const said = (cause as { errstr?: string } | null)?.errstr ?? (cause as Error | null)?.message;
  warn(`${file} is not a readable database (${said}): moved it to ${aside} and started with an empty database`);
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
    // Every page read once: a file damaged in its middle is found now, not by a request later.
    const problems = tables > 0 ? (db.prepare('PRAGMA quick_check(3)').all() as Array<{ quick_check: string }>) : [];
    if (problems.length > 0 && problems[0]!.quick_check !== 'ok') {
      const said = problems
        .flatMap((p) => p.quick_check.split('\n'))
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('***'))
        .slice(0, 2);
      throw new UnusableFile(`is not a readable database (quick_check: ${said.join('; ')})`, 'corrupt');
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

/**
 * Loads Node.js's built-in SQLite (`node:sqlite`) when a data directory asks for it, and only
 * then: `--memory` and the tests never load it. On Node.js 22 it prints an ExperimentalWarning
 * when loaded; that one warning is silenced (a user of the server did not choose the module), every
 * other warning still prints.
 */
import { createRequire } from 'node:module';

/** The part of `node:sqlite` the stores use. */
export type Sqlite = typeof import('node:sqlite');

let loaded: Sqlite | Error | undefined;

/**
 * `node:sqlite` with FTS5, or why it cannot be had on this Node.js (unflagged from 22.13, with
 * FTS5 from 22.16 and in 24; 23.x has none).
 */
export function loadSqlite(): Sqlite | Error {
  loaded ??= load();
  return loaded;
}

function load(): Sqlite | Error {
  const emitWarning = process.emitWarning;
  process.emitWarning = function quieter(this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning?.message;
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if (type === 'ExperimentalWarning' && /^SQLite is an experimental feature/.test(text ?? '')) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  let sqlite: Sqlite;
  try {
    sqlite = createRequire(import.meta.url)('node:sqlite') as Sqlite;
  } catch {
    return new Error(`Node.js ${process.version} has no node:sqlite (it needs 22.16 or later)`);
  } finally {
    process.emitWarning = emitWarning;
  }
  try {
    const probe = new sqlite.DatabaseSync(':memory:');
    probe.exec('CREATE VIRTUAL TABLE probe USING fts5(text)');
    probe.close();
  } catch {
    return new Error(`Node.js ${process.version}'s SQLite has no FTS5 full-text search (it needs 22.16 or later, or 24)`);
  }
  return sqlite;
}

/**
 * Where a server keeps its data, chosen once when it starts: in memory (the default of
 * `startObsServer`, what tests use), or in SQLite in a data directory (`data`, what the CLI does
 * by default).
 */
import type { ObsServerOptions } from '../types.js';
import { createMemoryStores } from './memory/index.js';
import { createSqliteStores } from './sqlite/index.js';
import { loadSqlite } from './sqlite/load.js';
import type { ObsStores } from './types.js';

/**
 * Opens the stores the options ask for.
 *
 * @throws Error when `data` is given but cannot be used (no SQLite with FTS5 on this Node.js, a
 *   directory that cannot be made, a database another process locks)
 */
export function openStores(options: ObsServerOptions): ObsStores {
  if (options.data === undefined) return createMemoryStores();
  const sqlite = loadSqlite();
  if (sqlite instanceof Error) throw new Error(`cannot keep data in ${options.data}: ${sqlite.message}`);
  return createSqliteStores(sqlite, options.data, (line) => console.warn(`[obs-local-server] ${line}`));
}

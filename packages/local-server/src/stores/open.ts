/**
 * Where a server keeps its data, chosen once when it starts: in memory (the default of
 * `startObsServer`, what tests use), or in SQLite in a data directory (`data`, what the CLI does
 * by default).
 */
import { Pricing } from '../model/cost.js';
import type { ObsServerOptions } from '../types.js';
import { createMemoryStores } from './memory/index.js';
import { whyUnusable } from './sqlite/database.js';
import { createSqliteStores } from './sqlite/index.js';
import { loadSqlite } from './sqlite/load.js';
import type { ObsStores } from './types.js';

/** A data directory that cannot be used: the message names it and says why. */
export class DataDirectoryError extends Error {
  override name = 'DataDirectoryError';
}

/**
 * Opens the stores the options ask for; `pricing` prices the trace list's costs.
 *
 * @throws DataDirectoryError when `data` is given but cannot be used (no SQLite with FTS5 on
 *   this Node.js, a directory that cannot be made or written, a database another process locks)
 */
export function openStores(options: ObsServerOptions, pricing: Pricing = new Pricing()): ObsStores {
  if (options.data === undefined) return createMemoryStores(pricing);
  const sqlite = loadSqlite();
  if (sqlite instanceof Error) throw new DataDirectoryError(`cannot keep data in ${options.data}: ${sqlite.message}`);
  try {
    return createSqliteStores(sqlite, options.data, (line) => console.warn(`[obs-local-server] ${line}`), pricing);
  } catch (err) {
    throw new DataDirectoryError(`cannot keep data in ${options.data}: ${whyUnusable(err)}`);
  }
}

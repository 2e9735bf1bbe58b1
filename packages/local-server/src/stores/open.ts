/**
 * Where a server keeps its data, chosen once when it starts. Today: memory. A persistent store
 * (issue 39: SQLite in a data directory, `--data` / `--memory`) is chosen here from the options,
 * and nothing else in the server changes.
 */
import type { ObsServerOptions } from '../types.js';
import { createMemoryStores } from './memory/index.js';
import type { ObsStores } from './types.js';

/** Opens the stores the options ask for. */
export function openStores(_options: ObsServerOptions): ObsStores {
  return createMemoryStores();
}

/**
 * The store seam's contract, run on every implementation of it: memory, and SQLite in a fresh
 * data directory per test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { createMemoryStores } from '../src/stores/memory/index.js';
import { createSqliteStores } from '../src/stores/sqlite/index.js';
import { loadSqlite } from '../src/stores/sqlite/load.js';
import { storeContract } from './store-contract.js';

storeContract('memory', createMemoryStores);

const root = mkdtempSync(path.join(tmpdir(), 'obs-stores-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
storeContract('sqlite', () => {
  const sqlite = loadSqlite();
  if (sqlite instanceof Error) throw sqlite;
  return createSqliteStores(sqlite, path.join(root, String(++n)), (line) => {
    throw new Error(`unexpected: ${line}`);
  });
});

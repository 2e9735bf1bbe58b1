/**
 * Runs a function inside a transaction: committed when it returns, rolled back when it throws.
 */
import type { DatabaseSync } from 'node:sqlite';

/** `fn`'s result, its writes committed together. */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
}

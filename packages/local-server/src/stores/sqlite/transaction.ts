/**
 * Runs a function inside a transaction: committed when it returns, rolled back when it throws.
 * Inside another transaction it just runs (the outer one commits or rolls back). When SQLite has
 * rolled the transaction back itself (a full disk, an I/O error), the error that caused it is
 * what is thrown, not "cannot rollback - no transaction is active".
 */
import type { DatabaseSync } from 'node:sqlite';

/** `fn`'s result, its writes committed together. */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  if (db.isTransaction) return fn();
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (err) {
    if (db.isOpen && db.isTransaction) {
      try {
        db.exec('ROLLBACK');
      } catch {
        // The error that got here says more than the rollback's.
      }
    }
    throw err;
  }
}

/**
 * Accepted scores kept in SQLite, in arrival order; the fields a query matches on are columns.
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { ReceivedScore } from '../../types.js';
import type { ScoreFilter, ScoreStore } from '../types.js';
import { transaction } from './transaction.js';

const COLUMNS: Record<keyof ScoreFilter, string> = {
  id: 'id',
  traceId: 'trace_id',
  observationId: 'observation_id',
  sessionId: 'session_id',
  datasetRunId: 'dataset_run_id',
  name: 'name',
};

/** SQLite store of scores. `all()` answers a copy (the memory store's is live). */
export class SqliteScoreStore implements ScoreStore {
  constructor(private readonly db: DatabaseSync) {}

  add(scores: readonly ReceivedScore[]): void {
    if (scores.length === 0) return;
    const insert = this.db.prepare(
      'INSERT INTO scores (id, trace_id, trace_lc, observation_id, session_id, dataset_run_id, name, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    // Compared as strings, as the memory store compares them (`String(score[field])`).
    const field = (score: ReceivedScore, key: string) => String(score[key]);
    transaction(this.db, () => {
      for (const s of scores) {
        insert.run(
          field(s, 'id'),
          field(s, 'traceId'),
          field(s, 'traceId').toLowerCase(),
          field(s, 'observationId'),
          field(s, 'sessionId'),
          field(s, 'datasetRunId'),
          field(s, 'name'),
          JSON.stringify(s),
        );
      }
    });
  }

  all(): ReceivedScore[] {
    return this.rows('SELECT data FROM scores ORDER BY seq', []);
  }

  find(filter: ScoreFilter): ReceivedScore[] {
    const where: string[] = [];
    const args: SQLInputValue[] = [];
    for (const [key, values] of Object.entries(filter) as Array<[keyof ScoreFilter, readonly string[] | undefined]>) {
      if (values === undefined) continue;
      where.push(values.length ? `${COLUMNS[key]} IN (${values.map(() => '?').join(',')})` : '0');
      args.push(...values);
    }
    return this.rows(`SELECT data FROM scores ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq`, args);
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM scores WHERE id = ?').run(id);
  }

  deleteForTraces(traceIds: readonly string[]): void {
    if (traceIds.length === 0) return;
    this.db.prepare(`DELETE FROM scores WHERE trace_lc IN (${traceIds.map(() => '?').join(',')})`).run(...traceIds);
  }

  clear(): void {
    this.db.exec('DELETE FROM scores');
  }

  private rows(sql: string, args: SQLInputValue[]): ReceivedScore[] {
    return (this.db.prepare(sql).all(...args) as Array<{ data: string }>).map((r) => JSON.parse(r.data) as ReceivedScore);
  }
}

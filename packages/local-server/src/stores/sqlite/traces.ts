/**
 * The trace list read from the `traces` table the span store writes: filters become WHERE
 * conditions on indexed columns, search an FTS5 match per word, and the newest rows come off the
 * start-time index, so a page of the list costs the same at 100,000 traces as at 100.
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { queryWords } from '../../model/search-text.js';
import type { TraceSummary } from '../../model/trace-summary.js';
import type { TraceFilter, TraceStore } from '../types.js';
import { summaryOf, type TraceRow } from './trace-index.js';

/** SQLite store of trace summaries (written by the span store). */
export class SqliteTraceStore implements TraceStore {
  constructor(private readonly db: DatabaseSync) {
    // Name filters compare as the memory store does (JavaScript's case folding, not SQLite's ASCII one).
    db.function('obs_contains', { deterministic: true }, (text, part) =>
      String(text).toLowerCase().includes(String(part).toLowerCase()) ? 1 : 0,
    );
  }

  list(filter: TraceFilter, limit = Number.POSITIVE_INFINITY): { data: TraceSummary[]; total: number } {
    const where: string[] = [];
    const args: SQLInputValue[] = [];
    const when = (condition: string, ...values: SQLInputValue[]) => {
      where.push(condition);
      args.push(...values);
    };
    if (filter.name) when('obs_contains(name, ?)', filter.name);
    if (filter.userId) when('user_id = ?', filter.userId);
    if (filter.sessionId) when('session_id = ?', filter.sessionId);
    if (filter.tag) when('id IN (SELECT trace_id FROM trace_tags WHERE tag = ?)', filter.tag);
    if (filter.errorsOnly) when('error = 1');
    if (filter.experimentsOnly) when('experiment IS NOT NULL');
    const found = this.search(queryWords(filter.search));
    if (found) when('seq IN (SELECT value FROM json_each(?))', JSON.stringify(found));
    const condition = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = Number((this.db.prepare(`SELECT count(*) AS n FROM traces ${condition}`).get(...args) as { n: number }).n);
    const rows = this.db
      .prepare(`SELECT * FROM traces ${condition} ORDER BY start_ms DESC LIMIT ?`)
      .all(...args, Number.isFinite(limit) ? limit : -1) as unknown as TraceRow[];
    return { data: rows.map(summaryOf), total };
  }

  /**
   * The `seq` of each trace that has every word (as a word's beginning), or `undefined` for no
   * search: found once, then handed to both the count and the page.
   */
  private search(wanted: string[]): number[] | undefined {
    if (wanted.length === 0) return undefined;
    const one = 'SELECT rowid >> 20 AS seq FROM search WHERE search MATCH ?';
    // Words are letters and digits only, so quoting each is enough; `*` makes it a prefix.
    const rows = this.db.prepare(wanted.map(() => one).join(' INTERSECT ')).all(...wanted.map((w) => `"${w}"*`));
    return (rows as Array<{ seq: number }>).map((r) => r.seq);
  }

  oldest(limit: number, before = Number.POSITIVE_INFINITY): string[] {
    const rows = this.db
      .prepare('SELECT id FROM traces WHERE start_ms < ? ORDER BY start_ms LIMIT ?')
      .all(Number.isFinite(before) ? before : Number.MAX_VALUE, limit) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  get(traceId: string): TraceSummary | undefined {
    const row = this.db.prepare('SELECT * FROM traces WHERE id = ?').get(traceId.toLowerCase()) as TraceRow | undefined;
    return row ? summaryOf(row) : undefined;
  }
}

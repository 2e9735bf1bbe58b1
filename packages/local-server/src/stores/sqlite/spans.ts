/**
 * Spans kept in SQLite, in arrival order (`seq`), written with their traces' read models in one
 * transaction per batch.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Pricing } from '../../model/cost.js';
import type { DecodedSpan } from '../../types.js';
import type { SpanStore } from '../types.js';
import { decodeSpan, encodeSpan } from './codec.js';
import { transaction } from './transaction.js';
import { searchRows, TraceIndex } from './trace-index.js';

type DataRow = { data: string };

/** SQLite store of decoded spans. */
export class SqliteSpanStore implements SpanStore {
  private readonly insert: StatementSync;
  private readonly index: TraceIndex;
  private readonly byTrace: StatementSync;

  constructor(
    private readonly db: DatabaseSync,
    pricing: Pricing,
  ) {
    this.insert = db.prepare('INSERT INTO spans (trace_id, name, prompt_name, experiment, data) VALUES (?, ?, ?, ?, ?)');
    this.index = new TraceIndex(db, pricing);
    this.byTrace = db.prepare('SELECT data FROM spans WHERE trace_id = ? ORDER BY seq');
  }

  add(spans: readonly DecodedSpan[]): void {
    if (spans.length === 0) return;
    transaction(this.db, () => {
      const kept = spans.map((span) => {
        const prompt = span.attributes['obs.observation.prompt.name'];
        const experiment = span.attributes['obs.experiment.id'] !== undefined ? 1 : 0;
        const { lastInsertRowid } = this.insert.run(
          span.traceId,
          span.name,
          typeof prompt === 'string' ? prompt : null,
          experiment,
          encodeSpan(span),
        );
        return { seq: Number(lastInsertRowid), span };
      });
      this.index.add(kept);
    });
  }

  get size(): number {
    return this.count('SELECT count(*) AS n FROM spans');
  }

  spans(): DecodedSpan[] {
    return this.decode(this.db.prepare('SELECT data FROM spans ORDER BY seq').all());
  }

  spansByTrace(traceId: string): DecodedSpan[] {
    return this.decode(this.byTrace.all(traceId.toLowerCase()));
  }

  spansByName(name: string | RegExp): DecodedSpan[] {
    if (typeof name === 'string') return this.decode(this.db.prepare('SELECT data FROM spans WHERE name = ? ORDER BY seq').all(name));
    const names = (this.db.prepare('SELECT DISTINCT name FROM spans').all() as Array<{ name: string }>).map((r) => r.name);
    const matching = names.filter((n) => {
      name.lastIndex = 0; // a global/sticky RegExp keeps state between calls
      return name.test(n);
    });
    if (matching.length === 0) return [];
    const rows = this.db
      .prepare(`SELECT data FROM spans WHERE name IN (${matching.map(() => '?').join(',')}) ORDER BY seq`)
      .all(...matching);
    return this.decode(rows);
  }

  traceIds(): string[] {
    return (this.db.prepare('SELECT id FROM traces ORDER BY seq').all() as Array<{ id: string }>).map((r) => r.id);
  }

  spansByPrompt(name: string): DecodedSpan[] {
    return this.decode(this.db.prepare('SELECT data FROM spans WHERE prompt_name = ? ORDER BY seq').all(name));
  }

  experimentSpans(): DecodedSpan[] {
    return this.decode(this.db.prepare('SELECT data FROM spans WHERE experiment = 1 ORDER BY seq').all());
  }

  deleteTraces(traceIds: readonly string[]): number {
    const ids = [...new Set(traceIds.map((id) => id.toLowerCase()))];
    if (ids.length === 0) return 0;
    const list = `(${ids.map(() => '?').join(',')})`;
    return transaction(this.db, () => {
      const words = this.db.prepare('DELETE FROM search WHERE rowid BETWEEN ? AND ?');
      for (const row of this.db.prepare(`SELECT seq FROM traces WHERE id IN ${list}`).all(...ids) as Array<{ seq: number }>) {
        words.run(...searchRows(row.seq));
      }
      this.db.prepare(`DELETE FROM trace_tags WHERE trace_id IN ${list}`).run(...ids);
      this.db.prepare(`DELETE FROM traces WHERE id IN ${list}`).run(...ids);
      return Number(this.db.prepare(`DELETE FROM spans WHERE trace_id IN ${list}`).run(...ids).changes);
    });
  }

  clear(): void {
    this.db.exec('DELETE FROM search; DELETE FROM trace_tags; DELETE FROM traces; DELETE FROM spans');
  }

  private count(sql: string): number {
    return Number((this.db.prepare(sql).get() as { n: number }).n);
  }

  private decode(rows: unknown[]): DecodedSpan[] {
    return (rows as DataRow[]).map((r) => decodeSpan(r.data));
  }
}

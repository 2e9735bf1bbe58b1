/**
 * The read models written with the spans: each trace's summary row (folded span by span with
 * `foldSpan`, so a row is read and written once per batch, not rebuilt), its tags, and each
 * span's words in the full-text index.
 *
 * A span's row in the full-text index has the rowid `trace.seq * 2^20 + its number in the trace`,
 * so a match names its trace without a join (`rowid >> 20`) and a trace's rows are one rowid
 * range. Words of spans past a trace's 1,048,576th are not indexed.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { Pricing } from '../../model/cost.js';
import { searchTextOf, words } from '../../model/search-text.js';
import { foldSpan, type TraceFold } from '../../model/trace-summary.js';
import type { DecodedSpan } from '../../types.js';
import type { TraceSummary } from '../../model/trace-summary.js';

/** How many of a trace's spans the full-text index can hold: the low bits of its rowids. */
export const SPANS_PER_TRACE_INDEXED = 2 ** 20;

/** The full-text rowids of the trace with this `seq`: `[first, last]`. */
export const searchRows = (traceSeq: number): [number, number] => [
  traceSeq * SPANS_PER_TRACE_INDEXED,
  (traceSeq + 1) * SPANS_PER_TRACE_INDEXED - 1,
];

/** A `traces` row as SQLite answers it. */
export interface TraceRow {
  id: string;
  seq: number;
  name: string;
  root_span_id: string;
  user_id: string | null;
  session_id: string | null;
  tags: string;
  start_ms: number;
  end_ms: number;
  observations: number;
  error: number;
  total_tokens: number;
  total_cost: number;
  experiment: string | null;
  root_orphan: number;
  root_start: number;
}

/** The summary a row holds. */
export function summaryOf(row: TraceRow): TraceSummary {
  return {
    id: row.id,
    name: row.name,
    rootSpanId: row.root_span_id,
    userId: row.user_id,
    sessionId: row.session_id,
    tags: JSON.parse(row.tags) as string[],
    start: row.start_ms,
    end: row.end_ms,
    observations: row.observations,
    error: row.error === 1,
    totalTokens: row.total_tokens,
    totalCost: row.total_cost,
    experiment: row.experiment,
  };
}

/** Writes the read models of spans already kept (the caller holds the transaction). */
export class TraceIndex {
  private readonly read: StatementSync;
  private readonly write: StatementSync;
  private readonly tag: StatementSync;
  private readonly words: StatementSync;

  /** @param pricing prices the summaries' costs (the bundled table by default: a migration's) */
  constructor(
    db: DatabaseSync,
    private readonly pricing: Pricing = new Pricing(),
  ) {
    this.read = db.prepare('SELECT * FROM traces WHERE id = ?');
    this.write = db.prepare(
      `INSERT OR REPLACE INTO traces (id, seq, name, root_span_id, user_id, session_id, tags, start_ms, end_ms, observations,
         error, total_tokens, total_cost, experiment, root_orphan, root_start)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.tag = db.prepare('INSERT OR IGNORE INTO trace_tags (tag, trace_id) VALUES (?, ?)');
    this.words = db.prepare('INSERT INTO search (rowid, text) VALUES (?, ?)');
  }

  /** Folds each span (with its row's `seq`) into its trace's row and indexes its words. */
  add(entries: Iterable<{ seq: number; span: DecodedSpan }>): void {
    const folds = new Map<string, { fold: TraceFold; seq: number }>();
    for (const { seq, span } of entries) {
      const known = folds.get(span.traceId) ?? this.stored(span.traceId);
      const number = known?.fold.summary.observations ?? 0;
      const traceSeq = known?.seq ?? seq;
      folds.set(span.traceId, { fold: foldSpan(known?.fold, span, this.pricing), seq: traceSeq });
      if (number < SPANS_PER_TRACE_INDEXED) this.words.run(searchRows(traceSeq)[0] + number, words(searchTextOf(span)).join(' '));
    }
    for (const { fold, seq } of folds.values()) {
      const s = fold.summary;
      this.write.run(
        s.id,
        seq,
        s.name,
        s.rootSpanId,
        s.userId,
        s.sessionId,
        JSON.stringify(s.tags),
        s.start,
        s.end,
        s.observations,
        s.error ? 1 : 0,
        s.totalTokens,
        s.totalCost,
        s.experiment,
        fold.rootOrphan ? 1 : 0,
        fold.rootStart,
      );
      for (const tag of s.tags) this.tag.run(tag, s.id);
    }
  }

  private stored(traceId: string): { fold: TraceFold; seq: number } | undefined {
    const row = this.read.get(traceId) as TraceRow | undefined;
    if (!row) return undefined;
    return { fold: { summary: summaryOf(row), rootOrphan: row.root_orphan === 1, rootStart: row.root_start }, seq: row.seq };
  }
}

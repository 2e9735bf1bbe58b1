/**
 * The database's schema, as the migrations that build it: version N is the first N steps. A file
 * records its version (`PRAGMA user_version`) and is brought up to date step by step when a
 * server opens it, each step in its own transaction. Steps only ever get added at the end.
 *
 * 1. The records: spans (each as JSON, with the columns queries look up), scores, datasets and
 *    their item revisions, prompt versions, media with their bytes, and `meta` (the key media
 *    URLs are signed with).
 * 2. The read models derived from the spans, filled from the spans already kept: the trace list
 *    (one summary row per trace, folded span by span) with its tags, and the full-text index
 *    (FTS5, contentless: the words only, one row per span, numbered within its trace: see
 *    ./trace-index.ts).
 * 3. Media links in a table of their own (they were a list inside each medium's JSON, rewritten
 *    whole by every ask): one row per medium, trace, observation and field, by trace too.
 */
import type { DatabaseSync } from 'node:sqlite';
import { decodeSpan } from './codec.js';
import { TraceIndex } from './trace-index.js';

/** What identifies a file as this server's: `PRAGMA application_id` ("obsL"). */
export const APPLICATION_ID = 0x6f62734c;

/** The migrations, oldest first; the schema's version is how many ran. */
export const MIGRATIONS: ReadonlyArray<(db: DatabaseSync) => void> = [
  (db) =>
    db.exec(`
      CREATE TABLE meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
      CREATE TABLE spans (
        seq INTEGER PRIMARY KEY,
        trace_id TEXT NOT NULL,
        name TEXT NOT NULL,
        prompt_name TEXT,
        experiment INTEGER NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX spans_by_trace ON spans (trace_id, seq);
      CREATE INDEX spans_by_name ON spans (name);
      CREATE INDEX spans_by_prompt ON spans (prompt_name, seq) WHERE prompt_name IS NOT NULL;
      CREATE INDEX spans_of_experiments ON spans (seq) WHERE experiment = 1;
      CREATE TABLE scores (
        seq INTEGER PRIMARY KEY,
        id TEXT, trace_id TEXT, trace_lc TEXT, observation_id TEXT, session_id TEXT, dataset_run_id TEXT, name TEXT,
        data TEXT NOT NULL
      );
      CREATE INDEX scores_by_trace ON scores (trace_lc);
      CREATE INDEX scores_by_id ON scores (id);
      CREATE TABLE datasets (seq INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, data TEXT NOT NULL);
      CREATE TABLE dataset_item_revisions (
        seq INTEGER PRIMARY KEY,
        item_id TEXT NOT NULL,
        dataset_name TEXT,
        at REAL NOT NULL,
        data TEXT
      );
      CREATE INDEX revisions_by_item ON dataset_item_revisions (item_id, seq);
      CREATE INDEX revisions_by_dataset ON dataset_item_revisions (dataset_name, at);
      CREATE TABLE prompts (seq INTEGER PRIMARY KEY, name TEXT NOT NULL, version INTEGER NOT NULL, data TEXT NOT NULL, UNIQUE (name, version));
      CREATE TABLE media (media_id TEXT PRIMARY KEY, sha256 TEXT, content_type TEXT, data TEXT, bytes BLOB);
      CREATE INDEX media_by_bytes ON media (sha256, content_type);
    `),
  (db) => {
    db.exec(`
      CREATE TABLE traces (
        id TEXT PRIMARY KEY,
        seq INTEGER NOT NULL,
        name TEXT NOT NULL,
        root_span_id TEXT NOT NULL,
        user_id TEXT,
        session_id TEXT,
        tags TEXT NOT NULL,
        start_ms REAL NOT NULL,
        end_ms REAL NOT NULL,
        observations INTEGER NOT NULL,
        error INTEGER NOT NULL,
        total_tokens REAL NOT NULL,
        total_cost REAL NOT NULL,
        experiment TEXT,
        root_orphan INTEGER NOT NULL,
        root_start REAL NOT NULL
      );
      CREATE INDEX traces_by_start ON traces (start_ms DESC);
      CREATE INDEX traces_by_seq ON traces (seq);
      CREATE INDEX traces_by_user ON traces (user_id, start_ms DESC);
      CREATE INDEX traces_by_session ON traces (session_id, start_ms DESC);
      CREATE INDEX traces_of_experiments ON traces (start_ms) WHERE experiment IS NOT NULL;
      CREATE TABLE trace_tags (tag TEXT NOT NULL, trace_id TEXT NOT NULL, PRIMARY KEY (tag, trace_id)) WITHOUT ROWID;
      CREATE VIRTUAL TABLE search USING fts5 (text, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2');
    `);
    const rows = db.prepare('SELECT seq, data FROM spans ORDER BY seq').iterate() as Iterable<{ seq: number; data: string }>;
    new TraceIndex(db).add(
      (function* () {
        for (const row of rows) yield { seq: Number(row.seq), span: decodeSpan(row.data) };
      })(),
    );
  },
  (db) => {
    db.exec(`
      CREATE TABLE media_links (
        seq INTEGER PRIMARY KEY,
        media_id TEXT NOT NULL,
        trace_id TEXT NOT NULL,
        trace_lc TEXT NOT NULL,
        observation_id TEXT NOT NULL,
        field TEXT NOT NULL,
        UNIQUE (media_id, trace_id, observation_id, field)
      );
      CREATE INDEX media_links_by_trace ON media_links (trace_lc);
    `);
    const insert = db.prepare(
      'INSERT OR IGNORE INTO media_links (media_id, trace_id, trace_lc, observation_id, field) VALUES (?, ?, ?, ?, ?)',
    );
    const rewrite = db.prepare('UPDATE media SET data = ? WHERE media_id = ?');
    const rows = db.prepare('SELECT media_id, data FROM media WHERE data IS NOT NULL').all() as Array<{ media_id: string; data: string }>;
    for (const row of rows) {
      const { links = [], ...record } = JSON.parse(row.data) as {
        links?: Array<{ traceId: string; observationId: string | null; field: string }>;
      };
      for (const l of links) insert.run(row.media_id, l.traceId, l.traceId.toLowerCase(), l.observationId ?? '', l.field);
      rewrite.run(JSON.stringify(record), row.media_id);
    }
  },
];

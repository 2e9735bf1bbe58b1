/**
 * Media records, their links and their bytes kept in SQLite (at most 50 MiB each, as the media
 * routes allow). Links have a table of their own, one row per trace, observation and field, so
 * keeping one is an indexed insert however many observations use the bytes.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { MediaLink, MediaStore, StoredMedia } from '../types.js';
import { transaction } from './transaction.js';

/** SQLite store of media. */
export class SqliteMediaStore implements MediaStore {
  private readonly insertLink: StatementSync;

  constructor(private readonly db: DatabaseSync) {
    this.insertLink = db.prepare(
      'INSERT OR IGNORE INTO media_links (media_id, trace_id, trace_lc, observation_id, field) VALUES (?, ?, ?, ?, ?)',
    );
  }

  get(mediaId: string): StoredMedia | undefined {
    return this.record(this.db.prepare('SELECT data FROM media WHERE media_id = ?').get(mediaId));
  }

  find(sha256Hash: string, contentType: string): StoredMedia | undefined {
    return this.record(
      this.db.prepare('SELECT data FROM media WHERE sha256 = ? AND content_type = ? LIMIT 1').get(sha256Hash, contentType),
    );
  }

  save(media: StoredMedia): void {
    this.db
      .prepare(
        `INSERT INTO media (media_id, sha256, content_type, data) VALUES (?, ?, ?, ?)
         ON CONFLICT (media_id) DO UPDATE SET sha256 = excluded.sha256, content_type = excluded.content_type, data = excluded.data`,
      )
      .run(media.mediaId, media.sha256Hash, media.contentType, JSON.stringify(media));
  }

  link(mediaId: string, link: MediaLink): void {
    // No observation is '' in the row: a NULL would make every such link distinct.
    this.insertLink.run(mediaId, link.traceId, link.traceId.toLowerCase(), link.observationId ?? '', link.field);
  }

  links(mediaId: string): MediaLink[] {
    const rows = this.db
      .prepare('SELECT trace_id, observation_id, field FROM media_links WHERE media_id = ? ORDER BY seq')
      .all(mediaId) as Array<{ trace_id: string; observation_id: string; field: string }>;
    return rows.map((r) => ({ traceId: r.trace_id, observationId: r.observation_id === '' ? null : r.observation_id, field: r.field }));
  }

  saveBytes(mediaId: string, bytes: Buffer): void {
    this.db
      .prepare('INSERT INTO media (media_id, bytes) VALUES (?, ?) ON CONFLICT (media_id) DO UPDATE SET bytes = excluded.bytes')
      .run(mediaId, bytes);
  }

  bytes(mediaId: string): Buffer | undefined {
    const row = this.db.prepare('SELECT bytes FROM media WHERE media_id = ?').get(mediaId) as { bytes: Uint8Array | null } | undefined;
    return row?.bytes ? Buffer.from(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength) : undefined;
  }

  deleteForTraces(traceIds: readonly string[]): void {
    if (traceIds.length === 0) return;
    const list = `(${traceIds.map(() => '?').join(',')})`;
    transaction(this.db, () => {
      const used = this.db.prepare(`SELECT DISTINCT media_id FROM media_links WHERE trace_lc IN ${list}`).all(...traceIds) as Array<{
        media_id: string;
      }>;
      this.db.prepare(`DELETE FROM media_links WHERE trace_lc IN ${list}`).run(...traceIds);
      const orphan = this.db.prepare('DELETE FROM media WHERE media_id = ? AND NOT EXISTS (SELECT 1 FROM media_links WHERE media_id = ?)');
      for (const { media_id } of used) orphan.run(media_id, media_id);
    });
  }

  clear(): void {
    this.db.exec('DELETE FROM media_links; DELETE FROM media');
  }

  private record(row: unknown): StoredMedia | undefined {
    const data = (row as { data: string | null } | undefined)?.data;
    return data ? (JSON.parse(data) as StoredMedia) : undefined;
  }
}

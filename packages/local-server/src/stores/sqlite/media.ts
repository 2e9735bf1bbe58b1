/**
 * Media records and their bytes kept in SQLite (at most 50 MiB each, as the media routes allow).
 */
import type { DatabaseSync } from 'node:sqlite';
import type { MediaStore, StoredMedia } from '../types.js';

/** SQLite store of media. */
export class SqliteMediaStore implements MediaStore {
  constructor(private readonly db: DatabaseSync) {}

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

  saveBytes(mediaId: string, bytes: Buffer): void {
    this.db
      .prepare('INSERT INTO media (media_id, bytes) VALUES (?, ?) ON CONFLICT (media_id) DO UPDATE SET bytes = excluded.bytes')
      .run(mediaId, bytes);
  }

  bytes(mediaId: string): Buffer | undefined {
    const row = this.db.prepare('SELECT bytes FROM media WHERE media_id = ?').get(mediaId) as { bytes: Uint8Array | null } | undefined;
    return row?.bytes ? Buffer.from(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength) : undefined;
  }

  clear(): void {
    this.db.exec('DELETE FROM media');
  }

  private record(row: unknown): StoredMedia | undefined {
    const data = (row as { data: string | null } | undefined)?.data;
    return data ? (JSON.parse(data) as StoredMedia) : undefined;
  }
}

/**
 * Media records and their bytes, kept in memory.
 */
import type { MediaStore, StoredMedia } from '../types.js';

/** In-memory store of media. */
export class MemoryMediaStore implements MediaStore {
  private readonly records = new Map<string, StoredMedia>();
  private readonly content = new Map<string, Buffer>();

  get(mediaId: string): StoredMedia | undefined {
    return this.records.get(mediaId);
  }

  find(sha256Hash: string, contentType: string): StoredMedia | undefined {
    for (const media of this.records.values()) if (media.sha256Hash === sha256Hash && media.contentType === contentType) return media;
    return undefined;
  }

  save(media: StoredMedia): void {
    this.records.set(media.mediaId, media);
  }

  saveBytes(mediaId: string, bytes: Buffer): void {
    this.content.set(mediaId, bytes);
  }

  bytes(mediaId: string): Buffer | undefined {
    return this.content.get(mediaId);
  }

  clear(): void {
    this.records.clear();
    this.content.clear();
  }
}

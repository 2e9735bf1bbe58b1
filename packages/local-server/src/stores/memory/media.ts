/**
 * Media records, their links and their bytes, kept in memory.
 */
import type { MediaLink, MediaStore, StoredMedia } from '../types.js';

/** In-memory store of media. */
export class MemoryMediaStore implements MediaStore {
  private readonly records = new Map<string, StoredMedia>();
  private readonly content = new Map<string, Buffer>();
  /** Media id -> its links by `traceId|observationId|field`, in the order kept. */
  private readonly linked = new Map<string, Map<string, MediaLink>>();

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

  link(mediaId: string, link: MediaLink): void {
    let links = this.linked.get(mediaId);
    if (!links) this.linked.set(mediaId, (links = new Map()));
    const key = `${link.traceId}|${link.observationId ?? ''}|${link.field}`;
    if (!links.has(key)) links.set(key, { ...link });
  }

  links(mediaId: string): MediaLink[] {
    return [...(this.linked.get(mediaId)?.values() ?? [])];
  }

  saveBytes(mediaId: string, bytes: Buffer): void {
    this.content.set(mediaId, bytes);
  }

  bytes(mediaId: string): Buffer | undefined {
    return this.content.get(mediaId);
  }

  deleteForTraces(traceIds: readonly string[]): void {
    const gone = new Set(traceIds.map((id) => id.toLowerCase()));
    for (const [mediaId, links] of this.linked) {
      let touched = false;
      for (const [key, link] of links) {
        if (gone.has(link.traceId.toLowerCase())) {
          links.delete(key);
          touched = true;
        }
      }
      if (touched && links.size === 0) {
        this.linked.delete(mediaId);
        this.records.delete(mediaId);
        this.content.delete(mediaId);
      }
    }
  }

  clear(): void {
    this.records.clear();
    this.content.clear();
    this.linked.clear();
  }
}

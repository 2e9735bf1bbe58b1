/**
 * What arrived of the media upload protocol, read back from the recorded requests (so faulted
 * and refused ones count too) and the media store, and faults aimed at one step of it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { decodeSegment } from '../http/router.js';
import { MEDIA_BYTES_PATH, MEDIA_PATH } from '../routes/media.js';
import type { MediaStore } from '../stores/types.js';
import type { Fault, HeldMedia, MediaAsk, MediaInspector, MediaReport, MediaStep, MediaUpload, RecordedRequest } from '../types.js';

const ONE = '([^/]+)';
const STEPS: Record<MediaStep, { method: string; path: (id: string) => RegExp | string }> = {
  ask: { method: 'POST', path: () => MEDIA_PATH },
  upload: { method: 'PUT', path: (id) => new RegExp(`^${MEDIA_BYTES_PATH}/${id}$`) },
  report: { method: 'PATCH', path: (id) => new RegExp(`^${MEDIA_PATH}/${id}$`) },
  read: { method: 'GET', path: (id) => new RegExp(`^${MEDIA_PATH}/${id}$`) },
  download: { method: 'GET', path: (id) => new RegExp(`^${MEDIA_BYTES_PATH}/${id}$`) },
};

/** The media read-back of one server. */
export class ServerMediaInspector implements MediaInspector {
  /** The media id and upload URL each answered ask got. */
  private readonly answered = new WeakMap<RecordedRequest, { mediaId: string; uploadUrl: string | null }>();

  constructor(
    private readonly requests: () => readonly RecordedRequest[],
    private readonly store: MediaStore,
    private readonly inject: (fault: Fault) => void,
  ) {}

  /** Remembers what an ask was answered (the media route calls it). */
  asked(request: RecordedRequest, mediaId: string, uploadUrl: string | null): void {
    this.answered.set(request, { mediaId, uploadUrl });
  }

  get asks(): MediaAsk[] {
    return this.requests()
      .filter((r) => r.method === 'POST' && r.path === MEDIA_PATH)
      .map((request) => {
        const a = this.answered.get(request);
        return { request, body: request.json, mediaId: a?.mediaId, uploadUrl: a?.uploadUrl };
      });
  }

  get uploads(): MediaUpload[] {
    return this.withId('PUT', MEDIA_BYTES_PATH).map(([request, mediaId]) => ({ request, mediaId, bytes: request.body }));
  }

  get reports(): MediaReport[] {
    return this.withId('PATCH', MEDIA_PATH).map(([request, mediaId]) => ({ request, mediaId, body: request.json }));
  }

  counts(mediaId: string): { asks: number; uploads: number; reports: number } {
    return {
      asks: this.asks.filter((a) => a.mediaId === mediaId).length,
      uploads: this.uploads.filter((u) => u.mediaId === mediaId).length,
      reports: this.reports.filter((r) => r.mediaId === mediaId).length,
    };
  }

  bytes(mediaId: string): Buffer | undefined {
    return this.store.get(mediaId)?.uploadedAt ? this.store.bytes(mediaId) : undefined;
  }

  get(mediaId: string): HeldMedia | undefined {
    const media = this.store.get(mediaId);
    if (!media) return undefined;
    const { createdAt: _createdAt, ...held } = media;
    return { ...held, links: this.store.links(mediaId) };
  }

  seed({
    bytes,
    contentType,
    mediaId = randomBytes(16).toString('base64url'),
  }: {
    bytes: Buffer;
    contentType: string;
    mediaId?: string;
  }): string {
    const at = new Date().toISOString();
    const sha256Hash = createHash('sha256').update(bytes).digest('base64');
    this.store.save({
      mediaId,
      contentType,
      contentLength: bytes.length,
      sha256Hash,
      createdAt: at,
      uploadedAt: at,
      report: null,
    });
    this.store.saveBytes(mediaId, bytes);
    return mediaId;
  }

  injectFault(step: MediaStep, fault: Omit<Fault, 'path' | 'method'> & { mediaId?: string }): void {
    const { mediaId, ...rest } = fault;
    const { method, path } = STEPS[step];
    // Paths are matched as sent: an id with reserved characters is percent-encoded there.
    const id = mediaId === undefined ? ONE : encodeURIComponent(mediaId).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    this.inject({ ...rest, method, path: path(id) });
  }

  /** The requests of one method on `{prefix}/{mediaId}`, with that id. */
  private withId(method: string, prefix: string): Array<[RecordedRequest, string]> {
    const pattern = new RegExp(`^${prefix}/([^/]+)$`);
    const out: Array<[RecordedRequest, string]> = [];
    for (const r of this.requests()) {
      const id = r.method === method ? pattern.exec(r.path)?.[1] : undefined;
      if (id !== undefined) out.push([r, decodeSegment(id)]);
    }
    return out;
  }
}

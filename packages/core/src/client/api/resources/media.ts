import type { Transport } from '../core/transport.js';
import type { EmptyRequest, RequestOptions } from '../core/types.js';
import { pathParam } from '../core/url.js';
import type { MediaRecord } from '../types.js';

/** `api.media`: Stored media (replaces the removed client alias `fetchMedia`). */
export class Media {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/public/media/{mediaId}` */
  get(mediaId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<MediaRecord> {
    return this.transport.request(
      { name: 'media.get', method: 'GET', path: `/api/public/media/${pathParam(mediaId, 'mediaId')}` },
      requestOptions,
    );
  }
}

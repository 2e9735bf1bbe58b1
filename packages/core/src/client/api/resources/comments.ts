import type { Transport } from '../core/transport.js';
import type { EmptyRequest, RequestOptions } from '../core/types.js';
import { pathParam } from '../core/url.js';
import type { ApiRecord } from '../types.js';

/** `api.comments`: Comments on traces, observations, sessions and prompts. */
export class Comments {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/public/comments/{commentId}` */
  getById(commentId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ApiRecord> {
    return this.transport.request(
      { name: 'comments.getById', method: 'GET', path: `/api/public/comments/${pathParam(commentId, 'commentId')}` },
      requestOptions,
    );
  }
}

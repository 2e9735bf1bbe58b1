import type { Transport } from '../core/transport.js';
import type { EmptyRequest, RequestOptions } from '../core/types.js';
import { pathParam } from '../core/url.js';
import type { CreateScoreRequest, CreateScoresResponse, DeleteResponse, GetScoresV3Response } from '../types.js';

/** Query of `scores.getMany` (Scores API v3). */
export interface GetScoresRequest {
  traceId?: string;
  /** Filter by score id (replaces the removed `scoreIds`). */
  id?: string;
  /** Field groups to return, e.g. `subject`. */
  fields?: string;
  cursor?: string;
  limit?: number;
}

/** `api.scores`: create in batches, delete, and read through the Scores API v3. */
export class Scores {
  constructor(private readonly transport: Transport) {}

  /**
   * `POST /api/public/scores` with an array of scores (a single object is no longer accepted).
   * A 207 answer (`rejected` present) resolves: some scores were accepted.
   */
  async create(requests: CreateScoreRequest[], requestOptions?: RequestOptions): Promise<CreateScoresResponse> {
    if (!Array.isArray(requests)) {
      throw new TypeError('scores.create expects an array of CreateScoreRequest');
    }
    return this.transport.request({ name: 'scores.create', method: 'POST', path: '/api/public/scores', body: requests }, requestOptions);
  }

  /** `DELETE /api/public/scores/{scoreId}` (replaces the removed legacy score delete). */
  delete(scoreId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<DeleteResponse> {
    return this.transport.request(
      { name: 'scores.delete', method: 'DELETE', path: `/api/public/scores/${pathParam(scoreId, 'scoreId')}` },
      requestOptions,
    );
  }

  /** `GET /api/public/v3/scores`: reads scores, filtered by `traceId` and/or `id`. */
  getMany(request: GetScoresRequest = {}, requestOptions?: RequestOptions): Promise<GetScoresV3Response> {
    const { traceId, id, fields, cursor, limit } = request ?? {};
    return this.transport.request(
      { name: 'scores.getMany', method: 'GET', path: '/api/public/v3/scores', query: { traceId, id, fields, cursor, limit } },
      requestOptions,
    );
  }
}

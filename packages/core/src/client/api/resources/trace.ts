import type { Transport } from '../core/transport.js';
import type { EmptyRequest, RequestOptions } from '../core/types.js';
import { pathParam } from '../core/url.js';
import type { DeleteResponse } from '../types.js';

/** Body of `trace.deleteMultiple`. */
export interface DeleteTracesRequest {
  /** Any number of ids: sent in consecutive requests of at most 1,000 (wire contract 4). */
  traceIds: string[];
}

/** Trace ids per `DELETE /api/public/traces` request (contract 8). */
export const MAX_TRACE_IDS_PER_DELETE = 1000;

/**
 * `api.trace`: deletes only. Trace reads were removed: use `observations.getMany` with `traceId`.
 */
export class Trace {
  constructor(private readonly transport: Transport) {}

  /** `DELETE /api/public/traces/{traceId}`: the trace with its observations and scores. */
  delete(traceId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<DeleteResponse> {
    return this.transport.request(
      { name: 'trace.delete', method: 'DELETE', path: `/api/public/traces/${pathParam(traceId, 'traceId')}` },
      requestOptions,
    );
  }

  /**
   * `DELETE /api/public/traces` with `{ traceIds }`: the traces, their observations and scores.
   * More than 1,000 ids go in consecutive requests of at most 1,000 (the server's limit); the
   * first failing request rejects, and the ids of later chunks are then not sent. Resolves with
   * the answer of the last request.
   */
  async deleteMultiple(request: DeleteTracesRequest, requestOptions?: RequestOptions): Promise<DeleteResponse> {
    const traceIds = request?.traceIds;
    const send = (ids: unknown) =>
      this.transport.request<DeleteResponse>(
        { name: 'trace.deleteMultiple', method: 'DELETE', path: '/api/public/traces', body: { traceIds: ids } },
        requestOptions,
      );
    if (!Array.isArray(traceIds) || traceIds.length <= MAX_TRACE_IDS_PER_DELETE) return send(traceIds);
    let last: DeleteResponse;
    for (let start = 0; start < traceIds.length; start += MAX_TRACE_IDS_PER_DELETE) {
      last = await send(traceIds.slice(start, start + MAX_TRACE_IDS_PER_DELETE));
    }
    return last;
  }
}

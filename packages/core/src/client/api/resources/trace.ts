import type { Transport } from '../core/transport.js';
import type { EmptyRequest, RequestOptions } from '../core/types.js';
import { pathParam } from '../core/url.js';
import type { DeleteResponse } from '../types.js';

/** Body of `trace.deleteMultiple`. */
export interface DeleteTracesRequest {
  /** At most 1000 ids per call (wire contract 4). */
  traceIds: string[];
}

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

  /** `DELETE /api/public/traces` with `{ traceIds }`: the traces, their observations and scores. */
  deleteMultiple(request: DeleteTracesRequest, requestOptions?: RequestOptions): Promise<DeleteResponse> {
    return this.transport.request(
      { name: 'trace.deleteMultiple', method: 'DELETE', path: '/api/public/traces', body: { traceIds: request?.traceIds } },
      requestOptions,
    );
  }
}

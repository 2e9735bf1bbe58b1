import type { Transport } from '../core/transport.js';
import type { EmptyRequest, RequestOptions } from '../core/types.js';
import { pathParam } from '../core/url.js';
import type { ApiRecord, DeleteResponse } from '../types.js';

/** `api.evaluators`: Evaluators (v2). */
export class Evaluators {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/public/v2/evaluators/{evaluatorId}` */
  get(evaluatorId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ApiRecord> {
    return this.transport.request(
      { name: 'evaluators.get', method: 'GET', path: `/api/public/v2/evaluators/${pathParam(evaluatorId, 'evaluatorId')}` },
      requestOptions,
    );
  }

  /** `DELETE /api/public/v2/evaluators/{evaluatorId}` */
  delete(evaluatorId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<DeleteResponse> {
    return this.transport.request(
      { name: 'evaluators.delete', method: 'DELETE', path: `/api/public/v2/evaluators/${pathParam(evaluatorId, 'evaluatorId')}` },
      requestOptions,
    );
  }
}

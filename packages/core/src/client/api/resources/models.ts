import type { Transport } from '../core/transport.js';
import type { EmptyRequest, RequestOptions } from '../core/types.js';
import { pathParam } from '../core/url.js';
import type { ApiRecord, DeleteResponse } from '../types.js';

/** `api.models`: Model definitions used for cost inference. */
export class Models {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/public/models/{id}` */
  get(id: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ApiRecord> {
    return this.transport.request({ name: 'models.get', method: 'GET', path: `/api/public/models/${pathParam(id, 'id')}` }, requestOptions);
  }

  /** `DELETE /api/public/models/{id}` */
  delete(id: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<DeleteResponse> {
    return this.transport.request(
      { name: 'models.delete', method: 'DELETE', path: `/api/public/models/${pathParam(id, 'id')}` },
      requestOptions,
    );
  }
}

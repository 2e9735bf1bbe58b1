import type { Transport } from '../core/transport.js';
import type { EmptyRequest, RequestOptions } from '../core/types.js';
import { pathParam } from '../core/url.js';
import type { CreateDatasetItemRequest, DatasetItem, DeleteResponse, PagedList } from '../types.js';

/** Query of `datasetItems.list`. */
export interface ListDatasetItemsRequest {
  datasetName?: string;
  /** The items as they were at this time (a dataset version); default: the current items. */
  version?: string | Date;
  page?: number;
  limit?: number;
}

/** `api.datasetItems`: items of datasets. */
export class DatasetItems {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/public/dataset-items/{id}` (replaces the removed client alias `getDatasetItem`). */
  get(id: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<DatasetItem> {
    return this.transport.request(
      { name: 'datasetItems.get', method: 'GET', path: `/api/public/dataset-items/${pathParam(id, 'id')}` },
      requestOptions,
    );
  }

  /** `DELETE /api/public/dataset-items/{id}` */
  delete(id: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<DeleteResponse> {
    return this.transport.request(
      { name: 'datasetItems.delete', method: 'DELETE', path: `/api/public/dataset-items/${pathParam(id, 'id')}` },
      requestOptions,
    );
  }

  /** `POST /api/public/dataset-items`: creates or, with an existing `id`, updates an item. */
  create(request: CreateDatasetItemRequest, requestOptions?: RequestOptions): Promise<DatasetItem> {
    return this.transport.request(
      { name: 'datasetItems.create', method: 'POST', path: '/api/public/dataset-items', body: request },
      requestOptions,
    );
  }

  /** `GET /api/public/dataset-items`, page by page. */
  list(request: ListDatasetItemsRequest = {}, requestOptions?: RequestOptions): Promise<PagedList<DatasetItem>> {
    const { datasetName, version, page, limit } = request ?? {};
    return this.transport.request(
      { name: 'datasetItems.list', method: 'GET', path: '/api/public/dataset-items', query: { datasetName, version, page, limit } },
      requestOptions,
    );
  }
}

import type { Transport } from '../core/transport.js';
import type { EmptyRequest, RequestOptions } from '../core/types.js';
import { pathParam } from '../core/url.js';
import type { CreateDatasetRequest, DatasetRecord, PagedList } from '../types.js';

/** Query of `datasets.list`. */
export interface ListDatasetsRequest {
  page?: number;
  limit?: number;
}

/**
 * `api.datasets`: datasets. Run reads and deletes were removed: use `experiments.list`,
 * `experiments.listItems` and `trace.deleteMultiple`.
 */
export class Datasets {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/public/v2/datasets/{datasetName}` */
  get(datasetName: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<DatasetRecord> {
    return this.transport.request(
      { name: 'datasets.get', method: 'GET', path: `/api/public/v2/datasets/${pathParam(datasetName, 'datasetName')}` },
      requestOptions,
    );
  }

  /** `POST /api/public/v2/datasets` (replaces the removed client alias `createDataset`). */
  create(request: CreateDatasetRequest, requestOptions?: RequestOptions): Promise<DatasetRecord> {
    return this.transport.request(
      { name: 'datasets.create', method: 'POST', path: '/api/public/v2/datasets', body: request },
      requestOptions,
    );
  }

  /** `GET /api/public/v2/datasets` */
  list(request: ListDatasetsRequest = {}, requestOptions?: RequestOptions): Promise<PagedList<DatasetRecord>> {
    const { page, limit } = request ?? {};
    return this.transport.request(
      { name: 'datasets.list', method: 'GET', path: '/api/public/v2/datasets', query: { page, limit } },
      requestOptions,
    );
  }
}

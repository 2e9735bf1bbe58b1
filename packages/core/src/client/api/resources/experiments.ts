import type { Transport } from '../core/transport.js';
import type { RequestOptions } from '../core/types.js';
import type { CursorPage, Experiment, ExperimentItem } from '../types.js';

/** Query of `experiments.list`. */
export interface ListExperimentsRequest {
  datasetId?: string;
  /** Only experiments started at or after this time. */
  fromStartTime?: string | Date;
  cursor?: string;
  limit?: number;
}

/** Query of `experiments.listItems`. */
export interface ListExperimentItemsRequest {
  datasetId?: string;
  experimentName?: string;
  fromStartTime?: string | Date;
  /** Cursor of the previous page; repeat until `meta.cursor` is empty. */
  cursor?: string;
  limit?: number;
}

/** `api.experiments`: experiments (dataset runs) and their items. */
export class Experiments {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/public/experiments` */
  list(request: ListExperimentsRequest = {}, requestOptions?: RequestOptions): Promise<CursorPage<Experiment>> {
    const { datasetId, fromStartTime, cursor, limit } = request ?? {};
    return this.transport.request(
      { name: 'experiments.list', method: 'GET', path: '/api/public/experiments', query: { datasetId, fromStartTime, cursor, limit } },
      requestOptions,
    );
  }

  /** `GET /api/public/experiment-items`: one cursor page of items. */
  listItems(request: ListExperimentItemsRequest = {}, requestOptions?: RequestOptions): Promise<CursorPage<ExperimentItem>> {
    const { datasetId, experimentName, fromStartTime, cursor, limit } = request ?? {};
    return this.transport.request(
      {
        name: 'experiments.listItems',
        method: 'GET',
        path: '/api/public/experiment-items',
        query: { datasetId, experimentName, fromStartTime, cursor, limit },
      },
      requestOptions,
    );
  }
}

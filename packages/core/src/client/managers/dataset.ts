import type { ObsApiClient } from '../api/client.js';
import type { RequestOptions } from '../api/core/types.js';
import type { CreateDatasetItemRequest, DatasetItem, DatasetRecord } from '../api/types.js';

/** A dataset with all its items (contract 2.4): `items` is a plain array, items have no `link()`. */
export interface Dataset extends DatasetRecord {
  items: DatasetItem[];
}

/** Options of `dataset.get`. */
export interface GetDatasetOptions {
  /** Items fetched per page; default 50. */
  fetchItemsPageSize?: number;
  requestOptions?: RequestOptions;
}

/** `client.dataset`: datasets with their items (replaces `getDataset`, `createDatasetItem`). */
export class DatasetManager {
  constructor(private readonly api: ObsApiClient) {}

  /** The dataset and every one of its items, read page by page. */
  async get(name: string, options: GetDatasetOptions = {}): Promise<Dataset> {
    const { fetchItemsPageSize, requestOptions } = options ?? {};
    const limit = Number.isInteger(fetchItemsPageSize) && fetchItemsPageSize! > 0 ? fetchItemsPageSize! : 50;
    const dataset = await this.api.datasets.get(name, {}, requestOptions);
    const items: DatasetItem[] = [];
    for (let page = 1; ; page++) {
      const res = await this.api.datasetItems.list({ datasetName: name, page, limit }, requestOptions);
      const data = Array.isArray(res?.data) ? res.data : [];
      items.push(...data);
      const totalPages = res?.meta?.totalPages;
      // Stop on the last page, and on a short or malformed one so a bad answer cannot loop forever.
      if (data.length < limit || (typeof totalPages === 'number' && page >= totalPages)) break;
    }
    return { ...dataset, items };
  }

  /** Creates (or, with an existing `id`, updates) an item of a dataset. */
  createItem(body: CreateDatasetItemRequest, requestOptions?: RequestOptions): Promise<DatasetItem> {
    return this.api.datasetItems.create(body, requestOptions);
  }
}

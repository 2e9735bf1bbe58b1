import type { ObsApiClient } from '../api/client.js';
import type { RequestOptions } from '../api/core/types.js';
import type { CreateDatasetItemRequest, DatasetItem, DatasetRecord } from '../api/types.js';
import type { ExperimentManager } from '../experiment/manager.js';
import type { ExperimentResult, RunExperimentParams } from '../experiment/types.js';
import { readTraceRoot } from './trace-root.js';

/** A dataset with all its items (contract 2.4): `items` is a plain array, items have no `link()`. */
export interface Dataset extends DatasetRecord {
  items: DatasetItem[];
  /** The version the items were read at, when `dataset.get` was given one (ISO time). */
  version?: string;
  /**
   * Runs `task` over the items with evaluators (contract 4.6). The experiment id is
   * deterministic for (project, dataset, run name); with a version, every item's root carries
   * `obs.experiment.item.version`.
   */
  runExperiment(params: RunExperimentParams<DatasetItem>): Promise<ExperimentResult<DatasetItem>>;
}

/** Options of `dataset.get`. */
export interface GetDatasetOptions {
  /** The dataset as it was at this time (sent as `version`); default: its current items. */
  version?: string | Date;
  /** Items fetched per page; default 50 (the server may cap it). */
  fetchItemsPageSize?: number;
  requestOptions?: RequestOptions;
}

/** Options of `dataset.createItemFromTrace`. */
export interface CreateItemFromTraceOptions {
  /** Name of the dataset the item goes to (create it first: `api.datasets.create`). */
  dataset: string;
  /** What the item expects; default: the trace's output (edit it when the trace's answer was wrong). */
  expectedOutput?: unknown;
  /** The item's input; default: the trace's input. */
  input?: unknown;
  metadata?: unknown;
  /** The item's id; default: one the server makes. An existing id updates that item. */
  id?: string;
  requestOptions?: RequestOptions;
}

/** Upper bound on pages, so a server that never says "last page" cannot loop forever. */
const MAX_PAGES = 100_000;

/** `client.dataset`: datasets with their items (replaces `getDataset`, `createDatasetItem`). */
export class DatasetManager {
  constructor(
    private readonly api: ObsApiClient,
    private readonly experiments: ExperimentManager,
  ) {}

  /**
   * The dataset and every one of its items, read page by page until the server's `meta` says
   * there are no more (a short page is not the end: servers cap the page size).
   */
  async get(name: string, options: GetDatasetOptions = {}): Promise<Dataset> {
    const { fetchItemsPageSize, requestOptions } = options ?? {};
    const version = options?.version instanceof Date ? options.version.toISOString() : options?.version;
    const limit = Number.isInteger(fetchItemsPageSize) && fetchItemsPageSize! > 0 ? fetchItemsPageSize! : 50;
    const record = await this.api.datasets.get(name, {}, requestOptions);
    const items: DatasetItem[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const res = await this.api.datasetItems.list({ datasetName: name, version, page, limit }, requestOptions);
      const data = Array.isArray(res?.data) ? res.data : [];
      items.push(...data);
      const totalPages = res?.meta?.totalPages;
      // The server's meta decides; without it only an empty page ends the listing.
      if (typeof totalPages === 'number' ? page >= totalPages : data.length === 0) break;
    }
    const source = { id: record.id, version };
    return {
      ...record,
      items,
      ...(version !== undefined ? { version } : {}),
      runExperiment: (params) => this.experiments.runOnDataset(params, items, source),
    };
  }

  /** Creates (or, with an existing `id`, updates) an item of a dataset. */
  createItem(body: CreateDatasetItemRequest, requestOptions?: RequestOptions): Promise<DatasetItem> {
    return this.api.datasetItems.create(body, requestOptions);
  }

  /**
   * Turns a trace into a test case: an item of `options.dataset` with the trace's input and, as
   * `expectedOutput`, its output (or the corrected one given), linked to it by `sourceTraceId`.
   * The trace's input and output are its root observation's. Rejects when the server has no
   * observation of the trace (not sent yet, or deleted), and as `createItem` does.
   *
   * @example
   * ```ts
   * await client.dataset.createItemFromTrace(traceId, { dataset: 'support-answers', expectedOutput: 'Refunds take 5 days.' });
   * ```
   */
  async createItemFromTrace(traceId: string, options: CreateItemFromTraceOptions): Promise<DatasetItem> {
    if (typeof traceId !== 'string' || traceId === '')
      throw new TypeError('dataset.createItemFromTrace: `traceId` must be a non-empty string');
    const { dataset, requestOptions } = options ?? ({} as CreateItemFromTraceOptions);
    if (typeof dataset !== 'string' || dataset === '') {
      throw new TypeError('dataset.createItemFromTrace: `dataset` (the dataset name) must be a non-empty string');
    }
    const root = await readTraceRoot(this.api, traceId, requestOptions);
    if (!root) throw new Error(`dataset.createItemFromTrace: the server has no observation of trace ${traceId} (not sent yet, or deleted)`);
    return this.api.datasetItems.create(
      {
        datasetName: dataset,
        input: 'input' in options ? options.input : root.input,
        expectedOutput: 'expectedOutput' in options ? options.expectedOutput : root.output,
        ...(options.metadata !== undefined ? { metadata: options.metadata } : {}),
        ...(options.id !== undefined ? { id: options.id } : {}),
        sourceTraceId: traceId,
      },
      requestOptions,
    );
  }
}

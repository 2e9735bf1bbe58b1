/**
 * The project resources of the local server beyond ingestion: datasets and items, prompts,
 * experiments (derived from received spans) and trace deletion. One entry point for the server.
 */
import type { ApiAnswer } from './api-answer.js';
import { DatasetStore } from './datasets.js';
import { routeExperiments } from './experiments.js';
import { PromptStore } from './prompts.js';
import { routeTraceDeletion } from './trace-deletion.js';
import type { DecodedSpan, RecordedRequest } from './types.js';

/** What the resources need from the server. */
export interface ResourceHost {
  spans(): DecodedSpan[];
  /** Removes these traces' spans and scores (ids in lower case). */
  deleteTraces(traceIds: string[]): void;
}

/** Datasets, prompts, experiments and trace deletion. */
export class ServerResources {
  readonly datasets = new DatasetStore();
  readonly prompts = new PromptStore();

  constructor(private readonly host: ResourceHost) {}

  /** The answer of a resource route, or `undefined` when `record` is not one. */
  route(record: RecordedRequest): ApiAnswer | undefined {
    return (
      this.datasets.route(record) ??
      this.prompts.route(record) ??
      routeExperiments(record, () => this.host.spans()) ??
      routeTraceDeletion(record, (ids) => this.host.deleteTraces(ids))
    );
  }

  /** Forgets datasets and prompts (experiments go with the spans). */
  clear(): void {
    this.datasets.clear();
    this.prompts.clear();
  }
}

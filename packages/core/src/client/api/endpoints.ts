/**
 * The public API, one line per endpoint (contract 4): `api.<namespace>.<method>(...)`. Removed in
 * major 6 and absent here: `legacy`, `scoresV3`, `sessions`, `datasetRunItems`, `trace.get/list`,
 * `datasets.getRun/getRuns/deleteRun`, `scores.getById` (calling one is a `TypeError`).
 */
import type { EmptyRequest as Empty, RequestOptions } from './core/types.js';
import { body, custom, endpoint, query, type Method } from './endpoint.js';
import type {
  ApiRecord,
  CreateDatasetItemRequest,
  CreateDatasetRequest,
  CreatePromptRequest,
  CreateScoreRequest,
  CreateScoresResponse,
  CursorPage,
  DatasetItem,
  DatasetRecord,
  DeleteResponse,
  Experiment,
  ExperimentItem,
  GetScoresV3Response,
  HealthResponse,
  MediaRecord,
  ObservationFilterCondition,
  ObservationsV2Response,
  PagedList,
  ProjectsResponse,
  PromptRecord,
} from './types.js';

/** Query of `scores.getMany` (Scores API v3). */
export interface GetScoresRequest {
  traceId?: string;
  /** Filter by score id (replaces the removed `scoreIds`). */
  id?: string;
  /** Field groups to return, e.g. `subject`. */
  fields?: string;
  cursor?: string;
  limit?: number;
}

/** Query of `datasets.list`. */
export interface ListDatasetsRequest {
  page?: number;
  limit?: number;
}

/** Query of `datasetItems.list`. */
export interface ListDatasetItemsRequest {
  datasetName?: string;
  /** The items as they were at this time (a dataset version); default: the current items. */
  version?: string | Date;
  page?: number;
  limit?: number;
}

/** Field groups of the v2 observations API. */
export type ObservationFieldGroup =
  | 'core'
  | 'basic'
  | 'time'
  | 'io'
  | 'metadata'
  | 'model'
  | 'usage'
  | 'prompt'
  | 'metrics'
  | 'trace_context';

/** Query of `observations.getMany`. */
export interface GetObservationsRequest {
  traceId?: string;
  sessionId?: string;
  /** Comma-separated field groups, or an array of them. */
  fields?: string | ObservationFieldGroup[];
  /** A v2 filter: an array of conditions (sent as JSON) or the JSON string itself. */
  filter?: ObservationFilterCondition[] | string;
  cursor?: string;
  limit?: number;
}

/** Query of `metrics.metrics`. */
export interface MetricsRequest {
  /** The metrics query: a JSON string, or an object sent as JSON. */
  query: string | Record<string, unknown>;
}

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

/** Query of `prompts.get`: a version or a label (the server defaults to `production`). */
export interface GetPromptRequest {
  version?: number;
  label?: string;
}

/** Body of `promptVersion.update`. */
export interface UpdatePromptVersionRequest {
  /** Labels to add to this version (a label moves off any other version). */
  newLabels: string[];
}

/** Body of `trace.deleteMultiple`. */
export interface DeleteTracesRequest {
  /** Any number of ids: sent in consecutive requests of at most 1,000 (wire contract 4). */
  traceIds: string[];
}

/** Trace ids per `DELETE /api/public/traces` request (contract 8). */
export const MAX_TRACE_IDS_PER_DELETE = 1000;

/** An array or an object as JSON; a string (already JSON) or nothing as it is. */
const json = (value: unknown) => (value === undefined || typeof value === 'string' ? value : JSON.stringify(value));

export const API = {
  /** Annotation queues and their items. */
  annotationQueues: {
    /** `GET /api/public/annotation-queues/{queueId}` */
    getQueue: endpoint<Method<[queueId: string], Empty, ApiRecord>>('GET', '/api/public/annotation-queues/{queueId}'),
    /** `GET /api/public/annotation-queues/{queueId}/items/{itemId}` */
    getQueueItem: endpoint<Method<[queueId: string, itemId: string], Empty, ApiRecord>>(
      'GET',
      '/api/public/annotation-queues/{queueId}/items/{itemId}',
    ),
    /** `DELETE /api/public/annotation-queues/{queueId}/items/{itemId}` */
    deleteQueueItem: endpoint<Method<[queueId: string, itemId: string], Empty, DeleteResponse>>(
      'DELETE',
      '/api/public/annotation-queues/{queueId}/items/{itemId}',
    ),
  },
  /** Blob-storage export integrations. */
  blobStorageIntegrations: {
    /** `GET /api/public/integrations/blob-storage` */
    getBlobStorageIntegrations: endpoint<Method<[], Empty, ApiRecord>>('GET', '/api/public/integrations/blob-storage'),
    /** `GET /api/public/integrations/blob-storage/{id}` */
    getBlobStorageIntegrationStatus: endpoint<Method<[id: string], Empty, ApiRecord>>('GET', '/api/public/integrations/blob-storage/{id}'),
    /** `DELETE /api/public/integrations/blob-storage/{id}` */
    deleteBlobStorageIntegration: endpoint<Method<[id: string], Empty, DeleteResponse>>(
      'DELETE',
      '/api/public/integrations/blob-storage/{id}',
    ),
  },
  /** Comments on traces, observations, sessions and prompts. */
  comments: {
    /** `GET /api/public/comments/{commentId}` */
    getById: endpoint<Method<[commentId: string], Empty, ApiRecord>>('GET', '/api/public/comments/{commentId}'),
  },
  /** Items of datasets. */
  datasetItems: {
    /** `GET /api/public/dataset-items/{id}` (replaces the removed client alias `getDatasetItem`). */
    get: endpoint<Method<[id: string], Empty, DatasetItem>>('GET', '/api/public/dataset-items/{id}'),
    /** `DELETE /api/public/dataset-items/{id}` */
    delete: endpoint<Method<[id: string], Empty, DeleteResponse>>('DELETE', '/api/public/dataset-items/{id}'),
    /** `POST /api/public/dataset-items`: creates or, with an existing `id`, updates an item. */
    create: endpoint<Method<[], CreateDatasetItemRequest, DatasetItem>>('POST', '/api/public/dataset-items', body),
    /** `GET /api/public/dataset-items`, page by page. */
    list: endpoint<Method<[], ListDatasetItemsRequest, PagedList<DatasetItem>>>(
      'GET',
      '/api/public/dataset-items',
      query('datasetName', 'version', 'page', 'limit'),
    ),
  },
  /** Datasets. Run reads and deletes were removed: use `experiments.list`, `experiments.listItems` and `trace.deleteMultiple`. */
  datasets: {
    /** `GET /api/public/v2/datasets/{datasetName}` */
    get: endpoint<Method<[datasetName: string], Empty, DatasetRecord>>('GET', '/api/public/v2/datasets/{datasetName}'),
    /** `POST /api/public/v2/datasets` (replaces the removed client alias `createDataset`). */
    create: endpoint<Method<[], CreateDatasetRequest, DatasetRecord>>('POST', '/api/public/v2/datasets', body),
    /** `GET /api/public/v2/datasets` */
    list: endpoint<Method<[], ListDatasetsRequest, PagedList<DatasetRecord>>>('GET', '/api/public/v2/datasets', query('page', 'limit')),
  },
  /** Evaluation rules (v2). */
  evaluationRules: {
    /** `GET /api/public/v2/evaluation-rules/{evaluationRuleId}` */
    get: endpoint<Method<[evaluationRuleId: string], Empty, ApiRecord>>('GET', '/api/public/v2/evaluation-rules/{evaluationRuleId}'),
    /** `DELETE /api/public/v2/evaluation-rules/{evaluationRuleId}` */
    delete: endpoint<Method<[evaluationRuleId: string], Empty, DeleteResponse>>(
      'DELETE',
      '/api/public/v2/evaluation-rules/{evaluationRuleId}',
    ),
  },
  /** Evaluators (v2). */
  evaluators: {
    /** `GET /api/public/v2/evaluators/{evaluatorId}` */
    get: endpoint<Method<[evaluatorId: string], Empty, ApiRecord>>('GET', '/api/public/v2/evaluators/{evaluatorId}'),
    /** `DELETE /api/public/v2/evaluators/{evaluatorId}` */
    delete: endpoint<Method<[evaluatorId: string], Empty, DeleteResponse>>('DELETE', '/api/public/v2/evaluators/{evaluatorId}'),
  },
  /** Experiments (dataset runs) and their items. */
  experiments: {
    /** `GET /api/public/experiments` */
    list: endpoint<Method<[], ListExperimentsRequest, CursorPage<Experiment>>>(
      'GET',
      '/api/public/experiments',
      query('datasetId', 'fromStartTime', 'cursor', 'limit'),
    ),
    /** `GET /api/public/experiment-items`: one cursor page of items. */
    listItems: endpoint<Method<[], ListExperimentItemsRequest, CursorPage<ExperimentItem>>>(
      'GET',
      '/api/public/experiment-items',
      query('datasetId', 'experimentName', 'fromStartTime', 'cursor', 'limit'),
    ),
  },
  /** Server health. */
  health: {
    /** `GET /api/public/health` */
    health: endpoint<Method<[], Empty, HealthResponse>>('GET', '/api/public/health'),
  },
  /** LLM connections of the project. */
  llmConnections: {
    /** `DELETE /api/public/llm-connections/{id}` */
    delete: endpoint<Method<[id: string], Empty, DeleteResponse>>('DELETE', '/api/public/llm-connections/{id}'),
  },
  /** Stored media (replaces the removed client alias `fetchMedia`). */
  media: {
    /** `GET /api/public/media/{mediaId}` */
    get: endpoint<Method<[mediaId: string], Empty, MediaRecord>>('GET', '/api/public/media/{mediaId}'),
  },
  /** Aggregated metrics (replaces the removed v1 metrics method). */
  metrics: {
    /** `GET /api/public/metrics` */
    metrics: endpoint<Method<[], MetricsRequest, ApiRecord>>('GET', '/api/public/metrics', (r: MetricsRequest | undefined) => ({
      query: { query: json(r?.query) },
    })),
  },
  /** Model definitions used for cost inference. */
  models: {
    /** `GET /api/public/models/{id}` */
    get: endpoint<Method<[id: string], Empty, ApiRecord>>('GET', '/api/public/models/{id}'),
    /** `DELETE /api/public/models/{id}` */
    delete: endpoint<Method<[id: string], Empty, DeleteResponse>>('DELETE', '/api/public/models/{id}'),
  },
  /** The v2 observations API, which replaces the removed trace, session and v1 observation reads. */
  observations: {
    /** `GET /api/public/v2/observations` */
    getMany: endpoint<Method<[], GetObservationsRequest, ObservationsV2Response>>(
      'GET',
      '/api/public/v2/observations',
      (r: GetObservationsRequest | undefined) => {
        const { traceId, sessionId, fields, filter, cursor, limit } = r ?? {};
        return {
          query: { traceId, sessionId, fields: Array.isArray(fields) ? fields.join(',') : fields, filter: json(filter), cursor, limit },
        };
      },
    ),
  },
  /** Organization-level reads (organization keys). */
  organizations: {
    /** `GET /api/public/organizations/memberships` */
    getOrganizationMemberships: endpoint<Method<[], Empty, ApiRecord>>('GET', '/api/public/organizations/memberships'),
    /** `GET /api/public/projects/{projectId}/memberships` */
    getProjectMemberships: endpoint<Method<[projectId: string], Empty, ApiRecord>>('GET', '/api/public/projects/{projectId}/memberships'),
    /** `GET /api/public/organizations/projects` */
    getOrganizationProjects: endpoint<Method<[], Empty, ApiRecord>>('GET', '/api/public/organizations/projects'),
    /** `GET /api/public/organizations/apiKeys` */
    getOrganizationApiKeys: endpoint<Method<[], Empty, ApiRecord>>('GET', '/api/public/organizations/apiKeys'),
  },
  /** Projects and their API keys. */
  projects: {
    /** `GET /api/public/projects` */
    get: endpoint<Method<[], Empty, ProjectsResponse>>('GET', '/api/public/projects'),
    /** `DELETE /api/public/projects/{projectId}` */
    delete: endpoint<Method<[projectId: string], Empty, DeleteResponse>>('DELETE', '/api/public/projects/{projectId}'),
    /** `GET /api/public/projects/{projectId}/apiKeys` */
    getApiKeys: endpoint<Method<[projectId: string], Empty, ApiRecord>>('GET', '/api/public/projects/{projectId}/apiKeys'),
    /** `DELETE /api/public/projects/{projectId}/apiKeys/{apiKeyId}` */
    deleteApiKey: endpoint<Method<[projectId: string, apiKeyId: string], Empty, DeleteResponse>>(
      'DELETE',
      '/api/public/projects/{projectId}/apiKeys/{apiKeyId}',
    ),
  },
  /** Prompt versions. */
  prompts: {
    /** `GET /api/public/v2/prompts/{promptName}` */
    get: endpoint<Method<[promptName: string], GetPromptRequest, PromptRecord>>(
      'GET',
      '/api/public/v2/prompts/{promptName}',
      query('version', 'label'),
    ),
    /** `POST /api/public/v2/prompts`: a new version of the named prompt. */
    create: endpoint<Method<[], CreatePromptRequest, PromptRecord>>('POST', '/api/public/v2/prompts', body),
  },
  /** Changes to one existing prompt version. */
  promptVersion: {
    /** `PATCH /api/public/v2/prompts/{name}/versions/{version}` */
    update: endpoint<Method<[name: string, version: number], UpdatePromptVersionRequest, PromptRecord>>(
      'PATCH',
      '/api/public/v2/prompts/{name}/versions/{version}',
      (r: UpdatePromptVersionRequest | undefined) => ({ body: { newLabels: r?.newLabels } }),
    ),
  },
  /** SCIM user provisioning. */
  scim: {
    /** `GET /api/public/scim/ServiceProviderConfig` */
    getServiceProviderConfig: endpoint<Method<[], Empty, ApiRecord>>('GET', '/api/public/scim/ServiceProviderConfig'),
    /** `GET /api/public/scim/ResourceTypes` */
    getResourceTypes: endpoint<Method<[], Empty, ApiRecord>>('GET', '/api/public/scim/ResourceTypes'),
    /** `GET /api/public/scim/Schemas` */
    getSchemas: endpoint<Method<[], Empty, ApiRecord>>('GET', '/api/public/scim/Schemas'),
    /** `GET /api/public/scim/Users/{userId}` */
    getUser: endpoint<Method<[userId: string], Empty, ApiRecord>>('GET', '/api/public/scim/Users/{userId}'),
    /** `DELETE /api/public/scim/Users/{userId}` */
    deleteUser: endpoint<Method<[userId: string], Empty, DeleteResponse>>('DELETE', '/api/public/scim/Users/{userId}'),
  },
  /** Score configs. */
  scoreConfigs: {
    /** `GET /api/public/score-configs/{configId}` */
    getById: endpoint<Method<[configId: string], Empty, ApiRecord>>('GET', '/api/public/score-configs/{configId}'),
  },
  /** Create in batches, delete, and read through the Scores API v3. */
  scores: {
    /**
     * `POST /api/public/scores` with an array of scores (a single object is no longer accepted).
     * A 207 answer (`rejected` present) resolves: some scores were accepted.
     */
    create: custom(
      (transport, name) =>
        async (requests: CreateScoreRequest[], requestOptions?: RequestOptions): Promise<CreateScoresResponse> => {
          if (!Array.isArray(requests)) throw new TypeError('scores.create expects an array of CreateScoreRequest');
          return transport.request({ name, method: 'POST', path: '/api/public/scores', body: requests }, requestOptions);
        },
    ),
    /** `DELETE /api/public/scores/{scoreId}` (replaces the removed legacy score delete). */
    delete: endpoint<Method<[scoreId: string], Empty, DeleteResponse>>('DELETE', '/api/public/scores/{scoreId}'),
    /** `GET /api/public/v3/scores`: reads scores, filtered by `traceId` and/or `id`. */
    getMany: endpoint<Method<[], GetScoresRequest, GetScoresV3Response>>(
      'GET',
      '/api/public/v3/scores',
      query('traceId', 'id', 'fields', 'cursor', 'limit'),
    ),
  },
  /** Deletes only. Trace reads were removed: use `observations.getMany` with `traceId`. */
  trace: {
    /** `DELETE /api/public/traces/{traceId}`: the trace with its observations and scores. */
    delete: endpoint<Method<[traceId: string], Empty, DeleteResponse>>('DELETE', '/api/public/traces/{traceId}'),
    /**
     * `DELETE /api/public/traces` with `{ traceIds }`: the traces, their observations and scores.
     * More than 1,000 ids go in consecutive requests of at most 1,000 (the server's limit); the
     * first failing request rejects, and the ids of later chunks are then not sent. Resolves with
     * the answer of the last request.
     */
    deleteMultiple: custom(
      (transport, name) =>
        async (request: DeleteTracesRequest, requestOptions?: RequestOptions): Promise<DeleteResponse> => {
          const traceIds = request?.traceIds;
          const send = (ids: unknown) =>
            transport.request<DeleteResponse>(
              { name, method: 'DELETE', path: '/api/public/traces', body: { traceIds: ids } },
              requestOptions,
            );
          if (!Array.isArray(traceIds) || traceIds.length <= MAX_TRACE_IDS_PER_DELETE) return send(traceIds);
          let last: DeleteResponse;
          for (let start = 0; start < traceIds.length; start += MAX_TRACE_IDS_PER_DELETE) {
            last = await send(traceIds.slice(start, start + MAX_TRACE_IDS_PER_DELETE));
          }
          return last;
        },
    ),
  },
  /** Endpoints whose shape may still change. */
  unstable: {
    /** Dashboard widgets. */
    dashboardWidgets: {
      /** `GET /api/public/unstable/dashboard-widgets/{widgetId}` */
      get: endpoint<Method<[widgetId: string], Empty, ApiRecord>>('GET', '/api/public/unstable/dashboard-widgets/{widgetId}'),
      /** `DELETE /api/public/unstable/dashboard-widgets/{widgetId}` */
      delete: endpoint<Method<[widgetId: string], Empty, DeleteResponse>>('DELETE', '/api/public/unstable/dashboard-widgets/{widgetId}'),
    },
    /** Dashboards and their widget placements. */
    dashboards: {
      /** `GET /api/public/unstable/dashboards/{dashboardId}` */
      get: endpoint<Method<[dashboardId: string], Empty, ApiRecord>>('GET', '/api/public/unstable/dashboards/{dashboardId}'),
      /** `DELETE /api/public/unstable/dashboards/{dashboardId}` */
      delete: endpoint<Method<[dashboardId: string], Empty, DeleteResponse>>('DELETE', '/api/public/unstable/dashboards/{dashboardId}'),
      /** `DELETE /api/public/unstable/dashboards/{dashboardId}/placements/{placementId}` */
      deletePlacement: endpoint<Method<[dashboardId: string, placementId: string], Empty, DeleteResponse>>(
        'DELETE',
        '/api/public/unstable/dashboards/{dashboardId}/placements/{placementId}',
      ),
    },
    /** Skill versions. */
    skills: {
      /** `DELETE /api/public/unstable/skills/{skillName}/versions/{skillVersion}` */
      deleteVersion: endpoint<Method<[skillName: string, skillVersion: string], Empty, DeleteResponse>>(
        'DELETE',
        '/api/public/unstable/skills/{skillName}/versions/{skillVersion}',
      ),
    },
  },
};

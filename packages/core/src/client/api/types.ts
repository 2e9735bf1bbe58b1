/**
 * Request and response shapes of the public API. Fields the contract states are typed;
 * records whose fields it does not state are open objects so newer servers never break a build.
 */

/** A JSON object of unstated shape. */
export interface ApiRecord {
  [key: string]: unknown;
}

/** `meta` of a cursor-paged answer: `cursor` is empty when there are no more pages. */
export interface CursorMeta {
  cursor?: string | null;
  [key: string]: unknown;
}

/** A cursor-paged answer. */
export interface CursorPage<T> {
  data: T[];
  meta: CursorMeta;
}

/** Data type of a score (wire contract 3). */
export type ScoreDataType = 'NUMERIC' | 'BOOLEAN' | 'CATEGORICAL';

/** One score sent to `POST /api/public/scores` (contract 2.2, wire contract 3). */
export interface CreateScoreRequest {
  /** Client-chosen id; the create answer does not return one. */
  id?: string;
  traceId?: string;
  observationId?: string;
  sessionId?: string;
  /** A run-level score: the experiment (dataset run) it rates. */
  datasetRunId?: string;
  name: string;
  value: number | string;
  dataType?: ScoreDataType;
  comment?: string;
  metadata?: unknown;
  configId?: string;
  environment?: string;
  /** ISO 8601; the score manager stamps the time the score was queued. */
  timestamp?: string;
}

/** Answer when every score of a batch was accepted (HTTP 200). */
export interface CreateScoreBatchResponse {
  accepted: number;
}

/** Why the server rejected one score of a batch. */
export interface CreateScoreError {
  /** Position of the score in the batch. */
  index: number;
  id?: string;
  message: string;
}

/** Answer when part of a batch was rejected (HTTP 207); told apart by `rejected`. */
export interface CreateScoreBatchResults {
  accepted: number;
  rejected: number;
  errors: CreateScoreError[];
}

/** Answer of `scores.create` (contract 2.3). It carries no score id. */
export type CreateScoresResponse = CreateScoreBatchResponse | CreateScoreBatchResults;

/** A score as the Scores API v3 returns it. */
export interface Score {
  id: string;
  name: string;
  value?: number | string | null;
  traceId?: string | null;
  observationId?: string | null;
  [key: string]: unknown;
}

/** Answer of `scores.getMany` (Scores API v3). */
export type GetScoresV3Response = CursorPage<Score>;

/** An observation of the v2 observations API; `input`/`output` are raw strings. */
export interface ObservationV2 {
  id: string;
  traceId?: string | null;
  input?: string | null;
  output?: string | null;
  [key: string]: unknown;
}

/** Answer of `observations.getMany`. */
export type ObservationsV2Response = CursorPage<ObservationV2>;

/** One condition of a v2 filter. */
export interface ObservationFilterCondition {
  type: string;
  column: string;
  operator: string;
  value: unknown;
  key?: string;
}

/** Answer of `health.health`. */
export interface HealthResponse {
  status: string;
  version: string;
  [key: string]: unknown;
}

/** A project the keys belong to. */
export interface Project {
  id: string;
  name: string;
  [key: string]: unknown;
}

/** Answer of `projects.get`. */
export interface ProjectsResponse {
  data: Project[];
}

/** A dataset record. */
export interface DatasetRecord {
  id: string;
  name: string;
  createdAt: string;
  [key: string]: unknown;
}

/** A dataset item (no `link()`: contract 4.6). */
export interface DatasetItem {
  id: string;
  datasetId?: string;
  input?: unknown;
  expectedOutput?: unknown;
  metadata?: unknown;
  /** The trace the item was made from (`dataset.createItemFromTrace`), if any. */
  sourceTraceId?: string | null;
  /** The observation the item was made from, if any. */
  sourceObservationId?: string | null;
  [key: string]: unknown;
}

/** Body of `datasets.create`. */
export interface CreateDatasetRequest {
  name: string;
  description?: string;
  metadata?: unknown;
  [key: string]: unknown;
}

/** Body of `datasetItems.create`. */
export interface CreateDatasetItemRequest {
  datasetName: string;
  id?: string;
  input?: unknown;
  expectedOutput?: unknown;
  metadata?: unknown;
  /** Links the item to the trace it was made from. */
  sourceTraceId?: string;
  /** Links the item to the observation it was made from. */
  sourceObservationId?: string;
  [key: string]: unknown;
}

/** A page-numbered list answer (datasets, dataset items). */
export interface PagedList<T> {
  data: T[];
  meta: { page: number; limit: number; totalItems?: number; totalPages: number; [key: string]: unknown };
}

/** An experiment (a dataset run). */
export interface Experiment {
  id: string;
  name: string;
  [key: string]: unknown;
}

/** An item of an experiment. */
export interface ExperimentItem {
  traceId: string;
  [key: string]: unknown;
}

/** A stored media record; `url` is a short-lived download URL. */
export interface MediaRecord {
  mediaId?: string;
  contentType?: string;
  url?: string;
  [key: string]: unknown;
}

/** A chat message of a chat prompt. */
export interface ChatMessage {
  role: string;
  content: string;
  [key: string]: unknown;
}

/** A slot in a chat prompt that `compile(_, placeholders)` fills with a list of messages. */
export interface ChatPlaceholder {
  type: 'placeholder';
  name: string;
}

/** A prompt version. */
export interface PromptRecord {
  name: string;
  version: number;
  type: 'text' | 'chat';
  prompt: string | Array<ChatMessage | ChatPlaceholder>;
  config?: unknown;
  labels?: string[];
  tags?: string[];
  [key: string]: unknown;
}

/** Body of `prompts.create`. */
export type CreatePromptRequest =
  | { type?: 'text'; name: string; prompt: string; config?: unknown; labels?: string[]; tags?: string[]; commitMessage?: string }
  | {
      type: 'chat';
      name: string;
      prompt: Array<ChatMessage | ChatPlaceholder>;
      config?: unknown;
      labels?: string[];
      tags?: string[];
      commitMessage?: string;
    };

/** Answer of a delete: usually `{ message }`, nothing for a 204. */
export type DeleteResponse = ApiRecord | undefined;

import type { CreateScoreRequest } from '../api/types.js';

/** What `score.create` takes: a `CreateScoreRequest`; the timestamp is the time it is queued. */
export type ScoreBody = Omit<CreateScoreRequest, 'timestamp'>;

/** A score of an observation or its trace: the target comes from the observation. */
export type TargetedScoreBody = Omit<ScoreBody, 'traceId' | 'observationId' | 'sessionId' | 'datasetRunId'>;

/** Anything that names an observation: an obs observation, or `{ id, traceId }` of a span. */
export interface ScoreTarget {
  /** Span (observation) id. */
  id: string;
  traceId: string;
}

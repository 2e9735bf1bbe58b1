/**
 * The score routes: `POST /api/public/scores` (200 / 207, the public key alone is enough),
 * `DELETE /api/public/scores/{id}` and the `GET /api/public/v3/scores` read.
 */
import { answer, refuse } from '../http/answer.js';
import { MAX_SCORES_PER_BATCH, processScoreBatch } from '../model/score-batch.js';
import type { ScoreFilter, ScoreStore } from '../stores/types.js';
import type { ScoreRule } from '../types.js';
import type { ApiRoute } from './api-route.js';

/** Where scores are posted. */
export const SCORES_PATH = '/api/public/scores';

const FILTER_KEYS = ['id', 'traceId', 'observationId', 'sessionId', 'datasetRunId', 'name'] as const;

/** The score routes; `rule()` is the test's rejection rule at the time of the request. */
export function scoreRoutes(scores: ScoreStore, rule: () => ScoreRule | undefined): ApiRoute[] {
  return [
    {
      methods: ['POST'],
      path: SCORES_PATH,
      auth: 'public',
      handle: (record) => {
        if (!Array.isArray(record.json)) return refuse(400, 'body must be a JSON array of scores');
        if (record.json.length > MAX_SCORES_PER_BATCH) {
          return refuse(400, `at most ${MAX_SCORES_PER_BATCH} scores per request, got ${record.json.length}`);
        }
        const { accepted, errors } = processScoreBatch(record.json, rule(), record.receivedAt);
        scores.add(accepted);
        if (errors.length === 0) return answer(200, { accepted: accepted.length });
        return answer(207, { accepted: accepted.length, rejected: errors.length, errors });
      },
    },
    {
      methods: ['DELETE'],
      path: `${SCORES_PATH}/:id`,
      handle: (_record, { id }) => {
        scores.delete(id!);
        return answer(204);
      },
    },
    {
      methods: ['GET'],
      path: '/api/public/v3/scores',
      handle: ({ query }) => {
        const filter: ScoreFilter = {};
        for (const key of FILTER_KEYS) if (query[key]) filter[key] = query[key].split(',');
        return answer(200, { data: scores.find(filter), meta: { cursor: null } });
      },
    },
  ];
}

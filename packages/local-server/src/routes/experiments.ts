/**
 * `GET /api/public/experiments` and `GET /api/public/experiment-items`: the experiments the
 * received spans describe, cursor-paged, filtered by dataset, experiment and start time.
 */
import { answer, refuse } from '../http/answer.js';
import { experimentItems, experiments } from '../model/experiments.js';
import { cursorPage } from '../model/paging.js';
import type { SpanStore } from '../stores/types.js';
import type { ApiRoute } from './api-route.js';

/** The experiment reads. */
export function experimentRoutes(spans: SpanStore): ApiRoute[] {
  return [
    {
      methods: ['GET'],
      path: '/api/public/experiments',
      handle: ({ query: q }) => {
        const recent = since(q);
        if (!recent) return badSince(q);
        const list = experiments(spans.experimentSpans()).filter(
          (e) => (!q['datasetId'] || e.datasetId === q['datasetId']) && recent(e.createdAt),
        );
        return answer(200, cursorPage(list, q));
      },
    },
    {
      methods: ['GET'],
      path: '/api/public/experiment-items',
      handle: ({ query: q }) => {
        const recent = since(q);
        if (!recent) return badSince(q);
        const items = experimentItems(spans.experimentSpans()).filter(
          (i) =>
            (!q['datasetId'] || i.datasetId === q['datasetId']) &&
            (!q['experimentName'] || i.experimentName === q['experimentName']) &&
            (!q['experimentId'] || i.experimentId === q['experimentId']) &&
            recent(i.createdAt),
        );
        return answer(200, cursorPage(items, q));
      },
    },
  ];
}

/** Whether a record created at an ISO time passes `fromStartTime`; `undefined` when that is not a time. */
function since(query: Record<string, string>): ((createdAt: string) => boolean) | undefined {
  const from = query['fromStartTime'];
  if (from === undefined || from === '') return () => true;
  const t = Date.parse(from);
  return Number.isNaN(t) ? undefined : (createdAt) => Date.parse(createdAt) >= t;
}

function badSince(query: Record<string, string>) {
  return refuse(400, `fromStartTime must be an ISO 8601 time, got ${JSON.stringify(query['fromStartTime'])}`);
}

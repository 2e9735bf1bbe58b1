/**
 * The SDK's reads that are not a resource of their own: `GET /api/public/health` (no key),
 * `GET /api/public/projects` and `GET /api/public/v2/observations` (built from the spans).
 */
import { answer, refuse } from '../http/answer.js';
import { matchesFilters, parseFilter, spanToObservation } from '../model/observations.js';
import { cursorPage } from '../model/paging.js';
import type { SpanStore } from '../stores/types.js';
import type { ApiRoute } from './api-route.js';

/** Most observations one v2 page holds. */
const MAX_OBSERVATIONS_PAGE = 1000;

/** What the reads need: the project the keys belong to, the version to report, the spans. */
export interface PublicReadDeps {
  project: { id: string; name: string };
  version: string;
  spans: SpanStore;
}

/** The health, project and observation reads. */
export function publicReadRoutes({ project, version, spans }: PublicReadDeps): ApiRoute[] {
  return [
    {
      methods: ['GET', 'HEAD'],
      path: '/api/public/health',
      auth: 'none',
      handle: () => answer(200, { status: 'OK', version }),
    },
    { methods: ['GET'], path: '/api/public/projects', handle: () => answer(200, { data: [{ id: project.id, name: project.name }] }) },
    {
      methods: ['GET'],
      path: '/api/public/v2/observations',
      handle: ({ query: q }) => {
        let filters: ReturnType<typeof parseFilter>;
        try {
          filters = parseFilter(q['filter']);
        } catch (err) {
          return refuse(400, (err as Error).message);
        }
        const all = (q['traceId'] ? spans.spansByTrace(q['traceId']) : spans.spans())
          .map(spanToObservation)
          .filter((o) => (q['sessionId'] ? o.sessionId === q['sessionId'] : true))
          .filter((o) => matchesFilters(o, filters));
        return answer(200, cursorPage(all, q, MAX_OBSERVATIONS_PAGE));
      },
    },
  ];
}

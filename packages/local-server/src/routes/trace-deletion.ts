/**
 * `DELETE /api/public/traces` (at most 1,000 ids, like the real server) and
 * `DELETE /api/public/traces/{traceId}`: the traces' spans, scores and media links go (and the
 * media no other trace uses).
 */
import { answer, objectBody, refuse } from '../http/answer.js';
import type { ObsStores } from '../stores/types.js';
import type { ApiRoute } from './api-route.js';

/** Trace ids one `DELETE /api/public/traces` may name. */
export const MAX_TRACE_IDS_PER_DELETE = 1000;

/** The trace deletions. */
export function traceDeletionRoutes(stores: Pick<ObsStores, 'deleteTraces'>): ApiRoute[] {
  const remove = (ids: string[]) => stores.deleteTraces(ids);
  return [
    {
      methods: ['DELETE'],
      path: '/api/public/traces',
      handle: ({ json }) => {
        const ids = objectBody(json)?.['traceIds'];
        if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' && id !== '')) {
          return refuse(400, 'traceIds must be an array of non-empty strings');
        }
        if (ids.length > MAX_TRACE_IDS_PER_DELETE) {
          return refuse(400, `at most ${MAX_TRACE_IDS_PER_DELETE} traceIds per request, got ${ids.length}`);
        }
        remove((ids as string[]).map((id) => id.toLowerCase()));
        return answer(200, { message: 'Traces deleted' });
      },
    },
    {
      methods: ['DELETE'],
      path: '/api/public/traces/:traceId',
      handle: (_record, { traceId }) => {
        remove([traceId!.toLowerCase()]);
        return answer(200, { message: 'Trace deleted' });
      },
    },
  ];
}

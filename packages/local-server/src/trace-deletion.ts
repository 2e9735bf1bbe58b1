/**
 * `DELETE /api/public/traces` (at most 1,000 ids, like the real server) and
 * `DELETE /api/public/traces/{traceId}`: the traces' spans and scores go.
 */
import { answer, decodeSegment, objectBody, refuse, type ApiAnswer } from './api-answer.js';
import type { RecordedRequest } from './types.js';

/** Trace ids one `DELETE /api/public/traces` may name. */
export const MAX_TRACE_IDS_PER_DELETE = 1000;

/** Answers the trace deletions through `remove` (lower-case ids); `undefined` for other routes. */
export function routeTraceDeletion(record: RecordedRequest, remove: (traceIds: string[]) => void): ApiAnswer | undefined {
  if (record.method !== 'DELETE') return undefined;
  if (record.path === '/api/public/traces') {
    const ids = objectBody(record.json)?.['traceIds'];
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' && id !== '')) {
      return refuse(400, 'traceIds must be an array of non-empty strings');
    }
    if (ids.length > MAX_TRACE_IDS_PER_DELETE) {
      return refuse(400, `at most ${MAX_TRACE_IDS_PER_DELETE} traceIds per request, got ${ids.length}`);
    }
    remove((ids as string[]).map((id) => id.toLowerCase()));
    return answer(200, { message: 'Traces deleted' });
  }
  const one = /^\/api\/public\/traces\/([^/]+)$/.exec(record.path)?.[1];
  if (one === undefined) return undefined;
  remove([decodeSegment(one).toLowerCase()]);
  return answer(200, { message: 'Trace deleted' });
}

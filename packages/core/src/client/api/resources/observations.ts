import type { Transport } from '../core/transport.js';
import type { RequestOptions } from '../core/types.js';
import type { ObservationFilterCondition, ObservationsV2Response } from '../types.js';

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

/**
 * `api.observations`: the v2 observations API, which replaces the removed trace, session and
 * v1 observation reads.
 */
export class Observations {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/public/v2/observations` */
  getMany(request: GetObservationsRequest = {}, requestOptions?: RequestOptions): Promise<ObservationsV2Response> {
    const { traceId, sessionId, fields, filter, cursor, limit } = request ?? {};
    return this.transport.request(
      {
        name: 'observations.getMany',
        method: 'GET',
        path: '/api/public/v2/observations',
        query: {
          traceId,
          sessionId,
          fields: Array.isArray(fields) ? fields.join(',') : fields,
          filter: filter === undefined || typeof filter === 'string' ? filter : JSON.stringify(filter),
          cursor,
          limit,
        },
      },
      requestOptions,
    );
  }
}

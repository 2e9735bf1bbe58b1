import type { Transport } from '../core/transport.js';
import type { RequestOptions } from '../core/types.js';
import type { ApiRecord } from '../types.js';

/** Query of `metrics.metrics`. */
export interface MetricsRequest {
  /** The metrics query: a JSON string, or an object sent as JSON. */
  query: string | Record<string, unknown>;
}

/** `api.metrics`: aggregated metrics (replaces the removed v1 metrics method). */
export class Metrics {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/public/metrics` */
  metrics(request: MetricsRequest, requestOptions?: RequestOptions): Promise<ApiRecord> {
    const query = request?.query;
    return this.transport.request(
      {
        name: 'metrics.metrics',
        method: 'GET',
        path: '/api/public/metrics',
        query: { query: typeof query === 'string' || query === undefined ? query : JSON.stringify(query) },
      },
      requestOptions,
    );
  }
}

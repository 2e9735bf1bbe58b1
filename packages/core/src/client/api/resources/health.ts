import type { Transport } from '../core/transport.js';
import type { EmptyRequest, RequestOptions } from '../core/types.js';
import type { HealthResponse } from '../types.js';

/** `api.health`: Server health. */
export class Health {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/public/health` */
  health(request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<HealthResponse> {
    return this.transport.request({ name: 'health.health', method: 'GET', path: '/api/public/health' }, requestOptions);
  }
}

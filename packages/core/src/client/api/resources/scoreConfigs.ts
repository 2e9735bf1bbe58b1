import type { Transport } from '../core/transport.js';
import type { EmptyRequest, RequestOptions } from '../core/types.js';
import { pathParam } from '../core/url.js';
import type { ApiRecord } from '../types.js';

/** `api.scoreConfigs`: Score configs. */
export class ScoreConfigs {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/public/score-configs/{configId}` */
  getById(configId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ApiRecord> {
    return this.transport.request(
      { name: 'scoreConfigs.getById', method: 'GET', path: `/api/public/score-configs/${pathParam(configId, 'configId')}` },
      requestOptions,
    );
  }
}

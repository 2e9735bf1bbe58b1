import type { Transport } from '../core/transport.js';
import type { EmptyRequest, RequestOptions } from '../core/types.js';
import { pathParam } from '../core/url.js';
import type { ApiRecord, DeleteResponse } from '../types.js';

/** `api.evaluationRules`: Evaluation rules (v2). */
export class EvaluationRules {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/public/v2/evaluation-rules/{evaluationRuleId}` */
  get(evaluationRuleId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ApiRecord> {
    return this.transport.request(
      {
        name: 'evaluationRules.get',
        method: 'GET',
        path: `/api/public/v2/evaluation-rules/${pathParam(evaluationRuleId, 'evaluationRuleId')}`,
      },
      requestOptions,
    );
  }

  /** `DELETE /api/public/v2/evaluation-rules/{evaluationRuleId}` */
  delete(evaluationRuleId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<DeleteResponse> {
    return this.transport.request(
      {
        name: 'evaluationRules.delete',
        method: 'DELETE',
        path: `/api/public/v2/evaluation-rules/${pathParam(evaluationRuleId, 'evaluationRuleId')}`,
      },
      requestOptions,
    );
  }
}

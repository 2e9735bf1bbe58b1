import type { Transport } from '../core/transport.js';
import type { EmptyRequest, RequestOptions } from '../core/types.js';
import { pathParam } from '../core/url.js';
import type { DeleteResponse } from '../types.js';

/** `api.llmConnections`: LLM connections of the project. */
export class LlmConnections {
  constructor(private readonly transport: Transport) {}

  /** `DELETE /api/public/llm-connections/{id}` */
  delete(id: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<DeleteResponse> {
    return this.transport.request(
      { name: 'llmConnections.delete', method: 'DELETE', path: `/api/public/llm-connections/${pathParam(id, 'id')}` },
      requestOptions,
    );
  }
}

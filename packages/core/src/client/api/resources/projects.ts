import type { Transport } from '../core/transport.js';
import type { EmptyRequest, RequestOptions } from '../core/types.js';
import { pathParam } from '../core/url.js';
import type { ApiRecord, DeleteResponse, ProjectsResponse } from '../types.js';

/** `api.projects`: Projects and their API keys. */
export class Projects {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/public/projects` */
  get(request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ProjectsResponse> {
    return this.transport.request({ name: 'projects.get', method: 'GET', path: '/api/public/projects' }, requestOptions);
  }

  /** `DELETE /api/public/projects/{projectId}` */
  delete(projectId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<DeleteResponse> {
    return this.transport.request(
      { name: 'projects.delete', method: 'DELETE', path: `/api/public/projects/${pathParam(projectId, 'projectId')}` },
      requestOptions,
    );
  }

  /** `GET /api/public/projects/{projectId}/apiKeys` */
  getApiKeys(projectId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ApiRecord> {
    return this.transport.request(
      { name: 'projects.getApiKeys', method: 'GET', path: `/api/public/projects/${pathParam(projectId, 'projectId')}/apiKeys` },
      requestOptions,
    );
  }

  /** `DELETE /api/public/projects/{projectId}/apiKeys/{apiKeyId}` */
  deleteApiKey(projectId: string, apiKeyId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<DeleteResponse> {
    return this.transport.request(
      {
        name: 'projects.deleteApiKey',
        method: 'DELETE',
        path: `/api/public/projects/${pathParam(projectId, 'projectId')}/apiKeys/${pathParam(apiKeyId, 'apiKeyId')}`,
      },
      requestOptions,
    );
  }
}

import type { Transport } from '../core/transport.js';
import type { EmptyRequest, RequestOptions } from '../core/types.js';
import { pathParam } from '../core/url.js';
import type { ApiRecord } from '../types.js';

/** `api.organizations`: Organization-level reads (organization keys). */
export class Organizations {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/public/organizations/memberships` */
  getOrganizationMemberships(request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ApiRecord> {
    return this.transport.request(
      { name: 'organizations.getOrganizationMemberships', method: 'GET', path: '/api/public/organizations/memberships' },
      requestOptions,
    );
  }

  /** `GET /api/public/projects/{projectId}/memberships` */
  getProjectMemberships(projectId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ApiRecord> {
    return this.transport.request(
      {
        name: 'organizations.getProjectMemberships',
        method: 'GET',
        path: `/api/public/projects/${pathParam(projectId, 'projectId')}/memberships`,
      },
      requestOptions,
    );
  }

  /** `GET /api/public/organizations/projects` */
  getOrganizationProjects(request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ApiRecord> {
    return this.transport.request(
      { name: 'organizations.getOrganizationProjects', method: 'GET', path: '/api/public/organizations/projects' },
      requestOptions,
    );
  }

  /** `GET /api/public/organizations/apiKeys` */
  getOrganizationApiKeys(request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ApiRecord> {
    return this.transport.request(
      { name: 'organizations.getOrganizationApiKeys', method: 'GET', path: '/api/public/organizations/apiKeys' },
      requestOptions,
    );
  }
}

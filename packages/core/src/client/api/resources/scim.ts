import type { Transport } from '../core/transport.js';
import type { EmptyRequest, RequestOptions } from '../core/types.js';
import { pathParam } from '../core/url.js';
import type { ApiRecord, DeleteResponse } from '../types.js';

/** `api.scim`: SCIM user provisioning. */
export class Scim {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/public/scim/ServiceProviderConfig` */
  getServiceProviderConfig(request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ApiRecord> {
    return this.transport.request(
      { name: 'scim.getServiceProviderConfig', method: 'GET', path: '/api/public/scim/ServiceProviderConfig' },
      requestOptions,
    );
  }

  /** `GET /api/public/scim/ResourceTypes` */
  getResourceTypes(request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ApiRecord> {
    return this.transport.request({ name: 'scim.getResourceTypes', method: 'GET', path: '/api/public/scim/ResourceTypes' }, requestOptions);
  }

  /** `GET /api/public/scim/Schemas` */
  getSchemas(request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ApiRecord> {
    return this.transport.request({ name: 'scim.getSchemas', method: 'GET', path: '/api/public/scim/Schemas' }, requestOptions);
  }

  /** `GET /api/public/scim/Users/{userId}` */
  getUser(userId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ApiRecord> {
    return this.transport.request(
      { name: 'scim.getUser', method: 'GET', path: `/api/public/scim/Users/${pathParam(userId, 'userId')}` },
      requestOptions,
    );
  }

  /** `DELETE /api/public/scim/Users/{userId}` */
  deleteUser(userId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<DeleteResponse> {
    return this.transport.request(
      { name: 'scim.deleteUser', method: 'DELETE', path: `/api/public/scim/Users/${pathParam(userId, 'userId')}` },
      requestOptions,
    );
  }
}

import type { Transport } from '../core/transport.js';
import type { EmptyRequest, RequestOptions } from '../core/types.js';
import { pathParam } from '../core/url.js';
import type { ApiRecord, DeleteResponse } from '../types.js';

/** `api.blobStorageIntegrations`: Blob-storage export integrations. */
export class BlobStorageIntegrations {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/public/integrations/blob-storage` */
  getBlobStorageIntegrations(request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ApiRecord> {
    return this.transport.request(
      { name: 'blobStorageIntegrations.getBlobStorageIntegrations', method: 'GET', path: '/api/public/integrations/blob-storage' },
      requestOptions,
    );
  }

  /** `GET /api/public/integrations/blob-storage/{id}` */
  getBlobStorageIntegrationStatus(id: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ApiRecord> {
    return this.transport.request(
      {
        name: 'blobStorageIntegrations.getBlobStorageIntegrationStatus',
        method: 'GET',
        path: `/api/public/integrations/blob-storage/${pathParam(id, 'id')}`,
      },
      requestOptions,
    );
  }

  /** `DELETE /api/public/integrations/blob-storage/{id}` */
  deleteBlobStorageIntegration(id: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<DeleteResponse> {
    return this.transport.request(
      {
        name: 'blobStorageIntegrations.deleteBlobStorageIntegration',
        method: 'DELETE',
        path: `/api/public/integrations/blob-storage/${pathParam(id, 'id')}`,
      },
      requestOptions,
    );
  }
}

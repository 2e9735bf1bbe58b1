import type { Transport } from '../core/transport.js';
import type { EmptyRequest, RequestOptions } from '../core/types.js';
import { pathParam } from '../core/url.js';
import type { ApiRecord, DeleteResponse } from '../types.js';

/** `api.annotationQueues`: Annotation queues and their items. */
export class AnnotationQueues {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/public/annotation-queues/{queueId}` */
  getQueue(queueId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ApiRecord> {
    return this.transport.request(
      { name: 'annotationQueues.getQueue', method: 'GET', path: `/api/public/annotation-queues/${pathParam(queueId, 'queueId')}` },
      requestOptions,
    );
  }

  /** `GET /api/public/annotation-queues/{queueId}/items/{itemId}` */
  getQueueItem(queueId: string, itemId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ApiRecord> {
    return this.transport.request(
      {
        name: 'annotationQueues.getQueueItem',
        method: 'GET',
        path: `/api/public/annotation-queues/${pathParam(queueId, 'queueId')}/items/${pathParam(itemId, 'itemId')}`,
      },
      requestOptions,
    );
  }

  /** `DELETE /api/public/annotation-queues/{queueId}/items/{itemId}` */
  deleteQueueItem(queueId: string, itemId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<DeleteResponse> {
    return this.transport.request(
      {
        name: 'annotationQueues.deleteQueueItem',
        method: 'DELETE',
        path: `/api/public/annotation-queues/${pathParam(queueId, 'queueId')}/items/${pathParam(itemId, 'itemId')}`,
      },
      requestOptions,
    );
  }
}

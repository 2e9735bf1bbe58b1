import type { Transport } from '../core/transport.js';
import type { RequestOptions } from '../core/types.js';
import { pathParam } from '../core/url.js';
import type { CreatePromptRequest, PromptRecord } from '../types.js';

/** Query of `prompts.get`: a version or a label (the server defaults to `production`). */
export interface GetPromptRequest {
  version?: number;
  label?: string;
}

/** `api.prompts`: prompt versions. */
export class Prompts {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/public/v2/prompts/{promptName}` */
  get(promptName: string, request: GetPromptRequest = {}, requestOptions?: RequestOptions): Promise<PromptRecord> {
    const { version, label } = request ?? {};
    return this.transport.request(
      {
        name: 'prompts.get',
        method: 'GET',
        path: `/api/public/v2/prompts/${pathParam(promptName, 'promptName')}`,
        query: { version, label },
      },
      requestOptions,
    );
  }

  /** `POST /api/public/v2/prompts`: a new version of the named prompt. */
  create(request: CreatePromptRequest, requestOptions?: RequestOptions): Promise<PromptRecord> {
    return this.transport.request(
      { name: 'prompts.create', method: 'POST', path: '/api/public/v2/prompts', body: request },
      requestOptions,
    );
  }
}

/** Body of `promptVersion.update`. */
export interface UpdatePromptVersionRequest {
  /** Labels to add to this version (a label moves off any other version). */
  newLabels: string[];
}

/** `api.promptVersion`: changes to one existing prompt version. */
export class PromptVersion {
  constructor(private readonly transport: Transport) {}

  /** `PATCH /api/public/v2/prompts/{name}/versions/{version}` */
  update(name: string, version: number, request: UpdatePromptVersionRequest, requestOptions?: RequestOptions): Promise<PromptRecord> {
    return this.transport.request(
      {
        name: 'promptVersion.update',
        method: 'PATCH',
        path: `/api/public/v2/prompts/${pathParam(name, 'name')}/versions/${pathParam(version, 'version')}`,
        body: { newLabels: request?.newLabels },
      },
      requestOptions,
    );
  }
}

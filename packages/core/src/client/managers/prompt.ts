import type { ObsApiClient } from '../api/client.js';
import type { RequestOptions } from '../api/core/types.js';
import type { GetPromptRequest } from '../api/resources/prompts.js';
import type { CreatePromptRequest, PromptRecord } from '../api/types.js';

/** Options of `prompt.get`. */
export interface GetPromptOptions extends GetPromptRequest {
  requestOptions?: RequestOptions;
}

/** Arguments of `prompt.update`. */
export interface UpdatePromptParams {
  name: string;
  version: number;
  /** Labels to add to this version. */
  newLabels: string[];
}

/** `client.prompt`: prompt versions, a thin layer over `api.prompts` (replaces `getPrompt` & co). */
export class PromptManager {
  constructor(private readonly api: ObsApiClient) {}

  /** A prompt version by `version` or `label` (server default: the `production` label). */
  get(name: string, options: GetPromptOptions = {}): Promise<PromptRecord> {
    const { version, label, requestOptions } = options ?? {};
    return this.api.prompts.get(name, { version, label }, requestOptions);
  }

  /** Creates a new version of the named prompt. */
  create(body: CreatePromptRequest, requestOptions?: RequestOptions): Promise<PromptRecord> {
    return this.api.prompts.create(body, requestOptions);
  }

  /** Adds labels to an existing version. */
  update(params: UpdatePromptParams, requestOptions?: RequestOptions): Promise<PromptRecord> {
    const { name, version, newLabels } = params ?? ({} as UpdatePromptParams);
    return this.api.promptVersion.update(name, version, { newLabels }, requestOptions);
  }
}

import { Transport, type TransportConfig } from './core/transport.js';
import { API } from './endpoints.js';
import { bindApi, type BoundApi } from './endpoint.js';

/** The namespaces of `ObsApiClient`, as `endpoints.ts` describes them. */
type Api = BoundApi<typeof API>;

// The class carries the namespaces `bindApi` makes: one method per endpoint of `endpoints.ts`.
export interface ObsApiClient extends Api {}

/**
 * The generated-style public API client: `api.<namespace>.<method>(...)`, one method per
 * endpoint (contract 4.1), each described once in `endpoints.ts`.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface declares what the constructor assigns
export class ObsApiClient {
  constructor(config: TransportConfig) {
    Object.assign(this, bindApi(new Transport(config), API));
  }
}

import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { ObsHandle } from '@obs/core';
import { ObsRuntime } from './obs-runtime.js';

/** The obs client: scores, prompts, datasets and the public API. */
export type ObsClient = ObsHandle['client'];

/**
 * Injectable access to obs. On application shutdown (`app.close()`, or a signal with
 * `enableShutdownHooks()`) it flushes everything accepted, after the HTTP server stopped, and
 * shuts the exporter down when `ObsModule` initialised obs.
 */
@Injectable()
export class ObsService implements OnApplicationShutdown {
  constructor(@Inject(ObsRuntime) private readonly runtime: ObsRuntime) {}

  /** The `ObsClient` (`client.score.trace(...)`, `client.api....`). */
  get client(): ObsClient {
    return this.runtime.handle.client;
  }

  /** Resolves once every span and score accepted so far is on the server. */
  flush(): Promise<void> {
    return this.runtime.handle.flush();
  }

  /** @internal Nest lifecycle hook. */
  async onApplicationShutdown(): Promise<void> {
    await this.runtime.close();
  }
}

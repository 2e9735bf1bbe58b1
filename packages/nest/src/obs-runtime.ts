import { getObsHandle, initObs, type ObsHandle } from '@obs/core';
import { errorMessage, logger, warnMisplacedOptions } from '@obs/core/kit';
import type { ObsNestOptions } from './options.js';
import { RequestTracker } from './request-tracker.js';

/** Handles an ObsModule initialised, with how many modules (apps) still use each. */
const moduleHandles = new WeakMap<ObsHandle, { users: number }>();

/**
 * What one `ObsModule` holds for the app's lifetime: the obs handle (the existing one, else one
 * it initialised from `options.obs` and `OBS_*`), and the request tracker.
 */
export class ObsRuntime {
  readonly handle: ObsHandle;
  readonly tracker: RequestTracker;
  private closing?: Promise<void>;

  constructor(options: ObsNestOptions) {
    warnMisplacedOptions('ObsModule.forRoot', options);
    const existing = getObsHandle();
    this.handle = existing ?? initObs(options.obs);
    if (!existing) moduleHandles.set(this.handle, { users: 0 });
    const owned = moduleHandles.get(this.handle);
    if (owned) owned.users++;
    this.tracker = new RequestTracker(options);
  }

  /**
   * Flushes everything accepted. When an ObsModule initialised obs, the last app using it to
   * close also shuts the exporter down (an app that called `initObs()` itself owns that). Never throws.
   */
  close(): Promise<void> {
    this.closing ??= this.flushOrShutdown().catch((err: unknown) => {
      logger.error(`@obs/nest: flush on application shutdown failed: ${errorMessage(err)}`);
    });
    return this.closing;
  }

  private flushOrShutdown(): Promise<void> {
    const owned = moduleHandles.get(this.handle);
    if (owned && --owned.users === 0) return this.handle.shutdown();
    return this.handle.flush();
  }
}

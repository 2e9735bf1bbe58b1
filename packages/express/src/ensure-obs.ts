import { getObsHandle, initObs, type ObsHandle, type ObsInitOptions } from '@obs/core';

/** Zero configuration: the existing obs handle, else one set up from `options` and `OBS_*` env. */
export function ensureObs(options?: ObsInitOptions): ObsHandle {
  return getObsHandle() ?? initObs(options);
}

/**
 * `@obs/nest`: traces a NestJS app's requests and services into obs.
 *
 * @packageDocumentation
 */
export { ObsModule } from './obs.module.js';
export { ObsService, type ObsClient } from './obs.service.js';
export { Observe, type ObserveMethodOptions } from './observe.decorator.js';
export { OBS_MODULE_OPTIONS, type ObsModuleAsyncOptions, type ObsNestOptions } from './options.js';

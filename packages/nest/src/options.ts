import type { FactoryProvider, ModuleMetadata } from '@nestjs/common';
import type { ObsHttpOptions, ObsInitOptions } from '@obs/core';

/**
 * Options of `ObsModule`: the shared request-observation options of every obs HTTP adapter
 * (`identify`, `captureInput`, `captureOutput`, `maxCaptureBytes`, `redactKeys`, `ignore`,
 * `traceIdHeader`, `name`), plus how to initialise obs when nothing has yet.
 *
 * `req`/`res` in the callbacks are the platform's request and response (Express: `Request`,
 * `Response`; Fastify: `FastifyRequest`, `FastifyReply`, except `ignore` and `name`, which run
 * in the middleware and get the raw Node.js request). `identify` and `captureInput` run after
 * guards, with the request the guards saw.
 */
export interface ObsNestOptions extends ObsHttpOptions {
  /**
   * Options of `initObs` when the module initialises obs (no `initObs()` ran before it).
   * Default: everything from the `OBS_*` environment variables.
   */
  obs?: ObsInitOptions;
}

/** `ObsModule.forRootAsync` options: options computed by a factory with injected providers. */
export interface ObsModuleAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  /** Returns the module options (or a Promise of them). */
  useFactory: FactoryProvider<ObsNestOptions>['useFactory'];
  /** Providers passed to `useFactory`, in order (e.g. a `ConfigService`). */
  inject?: FactoryProvider['inject'];
}

/** Injection token of the resolved `ObsNestOptions`. */
export const OBS_MODULE_OPTIONS = Symbol.for('obs.nest.options');

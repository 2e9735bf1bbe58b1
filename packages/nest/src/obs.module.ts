import {
  Global,
  Inject,
  Module,
  Optional,
  type DynamicModule,
  type MiddlewareConsumer,
  type NestModule,
  type Provider,
} from '@nestjs/common';
import { APP_INTERCEPTOR, ApplicationConfig, HttpAdapterHost, ModulesContainer } from '@nestjs/core';
import { ObsRuntime } from './obs-runtime.js';
import { ObsInterceptor } from './obs.interceptor.js';
import { linkPlatformRequests, mountOnExpress, ObsRequestMiddleware } from './obs.middleware.js';
import { ObsService } from './obs.service.js';
import { OBS_MODULE_OPTIONS, type ObsModuleAsyncOptions, type ObsNestOptions } from './options.js';
import { NestRouteResolver, type ModulesSource, type RouteConfigSource } from './route-resolver.js';

/**
 * Traces every HTTP request of a Nest app into obs: imported once in the root module, it
 * registers (globally) a middleware that starts each request's root observation before guards,
 * an interceptor that names it after the route, runs `identify` after guards and records input,
 * output and errors, `ObsService`, and a flush on application shutdown.
 *
 * @example
 * ```ts
 * @Module({ imports: [ObsModule.forRoot({ identify: (req) => ({ userId: req.user?.id }) })] })
 * export class AppModule {}
 * ```
 */
@Global()
@Module({})
export class ObsModule implements NestModule {
  constructor(
    @Inject(ObsRuntime) private readonly runtime: ObsRuntime,
    @Optional() @Inject(HttpAdapterHost) private readonly adapterHost?: HttpAdapterHost,
    @Optional() @Inject(ApplicationConfig) private readonly appConfig?: RouteConfigSource,
  ) {}

  /** Registers obs with fixed options; without `options.obs`, obs is configured from `OBS_*`. */
  static forRoot(options: ObsNestOptions = {}): DynamicModule {
    return ObsModule.withOptions({ provide: OBS_MODULE_OPTIONS, useValue: options });
  }

  /** Registers obs with options made by a factory (e.g. from a `ConfigService` of an imported module). */
  static forRootAsync(options: ObsModuleAsyncOptions): DynamicModule {
    return ObsModule.withOptions(
      { provide: OBS_MODULE_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
      options.imports,
    );
  }

  private static withOptions(optionsProvider: Provider, imports: DynamicModule['imports'] = []): DynamicModule {
    return {
      module: ObsModule,
      global: true,
      imports,
      providers: [
        optionsProvider,
        {
          provide: ObsRuntime,
          useFactory: (options: ObsNestOptions | undefined) => new ObsRuntime(options ?? {}),
          inject: [OBS_MODULE_OPTIONS],
        },
        {
          provide: NestRouteResolver,
          useFactory: (config?: RouteConfigSource, modules?: ModulesSource) => new NestRouteResolver(config, modules),
          inject: [
            { token: ApplicationConfig, optional: true },
            { token: ModulesContainer, optional: true },
          ],
        },
        ObsService,
        ObsRequestMiddleware,
        { provide: APP_INTERCEPTOR, useClass: ObsInterceptor },
      ],
      exports: [ObsService, OBS_MODULE_OPTIONS],
    };
  }

  /** @internal Starts the root observation before guards, for every route. */
  configure(consumer: MiddlewareConsumer): void {
    const adapter = this.adapterHost?.httpAdapter;
    // A global prefix or URI versioning narrows where Nest mounts the wildcard (and its
    // exclusions widen it): Nest alone knows those paths, so its middleware is kept then.
    const everyPath = !this.appConfig?.getGlobalPrefix() && !this.appConfig?.getVersioning();
    if (!everyPath || !mountOnExpress(adapter, this.runtime.tracker)) consumer.apply(ObsRequestMiddleware).forRoutes('{*path}');
    linkPlatformRequests(adapter?.getInstance?.(), this.runtime.tracker);
  }
}

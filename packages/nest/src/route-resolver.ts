import { VERSION_NEUTRAL, VersioningType, type VersioningOptions } from '@nestjs/common';
import { MODULE_PATH, PATH_METADATA, SSE_METADATA, VERSION_METADATA } from './nest-metadata-keys.js';
import { getMetadata } from './reflect.js';

/**
 * A class or function Nest keeps route metadata on (a module, a controller, a handler): only its
 * identity and its reflect metadata are read.
 */
type MetadataTarget = object;

/** What the resolver needs of Nest's `ApplicationConfig` (global prefix, versioning). */
export interface RouteConfigSource {
  getGlobalPrefix(): string;
  getGlobalPrefixOptions?(): { exclude?: unknown[] };
  getVersioning(): VersioningOptions | undefined;
}

/** What the resolver needs of Nest's `ModulesContainer` (for `RouterModule` paths). */
export interface ModulesSource {
  values(): IterableIterator<{ metatype: MetadataTarget; controllers: Map<unknown, { metatype: unknown }> }>;
  applicationId?: string;
}

interface Template {
  route: string;
  pattern?: RegExp;
}

/** What the interceptor needs of a handler, computed once per handler. */
export class HandlerRoutes {
  constructor(
    private readonly templates: Template[],
    /** The handler is an `@Sse()` route. */
    readonly sse: boolean,
  ) {}

  /** The route template that served `path`; the platform's matched route breaks ties. */
  routeFor(path: string, req: unknown): string | undefined {
    const templates = this.templates;
    if (templates.length === 1) return templates[0]!.route;
    const matched = platformRoute(req);
    if (templates.length === 0) return matched;
    if (matched) {
      const same = templates.find((t) => t.route === matched);
      if (same) return same.route;
    }
    for (const t of templates) if ((t.pattern ??= compileTemplate(t.route)).test(path)) return t.route;
    return templates[0]!.route;
  }
}

/**
 * The parameterised route of a handler (`/api/v1/cats/:id`), built from Nest's own route
 * metadata the way Nest builds the paths it registers: global prefix, URI version, the
 * `RouterModule` path, the controller's path and the handler's path. Computed once per
 * handler; when a handler is mounted under several paths, the one that served the request wins.
 */
export class NestRouteResolver {
  private readonly cache = new WeakMap<MetadataTarget, Map<MetadataTarget, HandlerRoutes>>();
  private modulePaths?: Map<unknown, string>;
  private lastController?: MetadataTarget;
  private lastHandler?: MetadataTarget;
  private lastRoutes?: HandlerRoutes;

  constructor(
    private readonly config?: RouteConfigSource,
    private readonly modules?: ModulesSource,
  ) {}

  /** The routes of `handler` of `controller` (cached). */
  describe(controller: MetadataTarget, handler: MetadataTarget): HandlerRoutes {
    // Consecutive requests often hit the same handler: skip the map lookups then.
    if (handler === this.lastHandler && controller === this.lastController) return this.lastRoutes!;
    const routes = this.lookup(controller, handler);
    this.lastController = controller;
    this.lastHandler = handler;
    this.lastRoutes = routes;
    return routes;
  }

  private lookup(controller: MetadataTarget, handler: MetadataTarget): HandlerRoutes {
    let byController = this.cache.get(handler);
    if (!byController) this.cache.set(handler, (byController = new Map()));
    let routes = byController.get(controller);
    if (!routes) {
      routes = new HandlerRoutes(this.templatesOf(controller, handler), Boolean(getMetadata(SSE_METADATA, handler)));
      byController.set(controller, routes);
    }
    return routes;
  }

  private templatesOf(controller: MetadataTarget, handler: MetadataTarget): Template[] {
    const controllerPaths = asList(getMetadata(PATH_METADATA, controller));
    const handlerPaths = asList(getMetadata(PATH_METADATA, handler));
    if (controllerPaths.length === 0 || handlerPaths.length === 0) return [];
    const globalPrefix = this.config?.getGlobalPrefix() ?? '';
    const hasExclusions = (this.config?.getGlobalPrefixOptions?.().exclude?.length ?? 0) > 0;
    const modulePath = this.modulePathOf(controller);
    const routes = new Set<string>();
    for (const version of this.versionSegments(controller, handler)) {
      for (const c of controllerPaths) {
        for (const h of handlerPaths) {
          const route = joinPath(version, modulePath, c, h);
          // A route excluded from the prefix is served without it; the request path decides.
          if (globalPrefix) routes.add(joinPath(globalPrefix, route));
          if (!globalPrefix || hasExclusions) routes.add(route);
        }
      }
    }
    return [...routes].map((route) => ({ route }));
  }

  /** `v1`-style path segments under URI versioning (one per version); `''` otherwise. */
  private versionSegments(controller: MetadataTarget, handler: MetadataTarget): string[] {
    const versioning = this.config?.getVersioning();
    if (versioning?.type !== VersioningType.URI) return [''];
    const version = getMetadata(VERSION_METADATA, handler) || getMetadata(VERSION_METADATA, controller) || versioning.defaultVersion;
    if (!version) return [''];
    const prefix = versioning.prefix === false ? '' : (versioning.prefix ?? 'v');
    return asList(version).map((v) => (v === VERSION_NEUTRAL ? '' : `${prefix}${String(v)}`));
  }

  private modulePathOf(controller: MetadataTarget): string | undefined {
    if (!this.modules) return undefined;
    if (!this.modulePaths) {
      // Built on first use: RouterModule registers its paths while the app initialises.
      const paths = new Map<unknown, string>();
      const appKey = this.modules.applicationId ? MODULE_PATH + this.modules.applicationId : undefined;
      for (const mod of this.modules.values()) {
        const path = (appKey && getMetadata(appKey, mod.metatype)) ?? getMetadata(MODULE_PATH, mod.metatype);
        if (typeof path !== 'string' || !path) continue;
        for (const wrapper of mod.controllers.values()) paths.set(wrapper.metatype, path);
      }
      this.modulePaths = paths;
    }
    return this.modulePaths.get(controller);
  }
}

/** The route template the platform matched, when it exposes one (Express `req.route`, Fastify `routeOptions`). */
export function platformRoute(req: unknown): string | undefined {
  const platform = req as { route?: { path?: unknown }; routeOptions?: { url?: unknown } } | null | undefined;
  const express = platform?.route?.path;
  if (typeof express === 'string') return express;
  const fastify = platform?.routeOptions?.url;
  return typeof fastify === 'string' ? fastify : undefined;
}

function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function joinPath(...parts: unknown[]): string {
  const segments: string[] = [];
  for (const p of parts) {
    if (typeof p !== 'string') continue;
    const trimmed = p.replace(/^\/+|\/+$/g, '');
    if (trimmed) segments.push(trimmed);
  }
  return `/${segments.join('/')}`;
}

/** A matcher for path-to-regexp templates (`:param`, `*splat`, `{optional}`, legacy `(.*)`). */
function compileTemplate(route: string): RegExp {
  let source = '';
  for (let i = 0; i < route.length; i++) {
    const c = route[i]!;
    if (c === ':' || c === '*') {
      let j = i + 1;
      while (j < route.length && /[\w$]/.test(route[j]!)) j++;
      source += c === ':' ? '[^/]+' : '.*';
      i = j - 1;
    } else if (c === '{') source += '(?:';
    else if (c === '}') source += ')?';
    else if (route.startsWith('(.*)', i)) {
      source += '.*';
      i += 3;
    } else source += c.replace(/[.+?^$|()[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}/?$`, 'i');
}

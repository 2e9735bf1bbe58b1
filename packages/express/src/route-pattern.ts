import {
  asApp,
  asRouter,
  isMountedAppLayer,
  matchPrefix,
  pathText,
  routerOfApp,
  type ExpressApp,
  type ExpressLayer,
  type ExpressRoute,
  type ExpressRouter,
} from './express-internals.js';

/**
 * The parameterised pattern of a request: `req.baseUrl` is the mount prefix as requested
 * (`/users/42/posts`), so the prefix is found again in the app's router tree, from the root
 * app down to the router holding the route, and each mount layer contributes its declared
 * path (`/users/:userId/posts`).
 */

/** What answered the request: a route, or (no route) the middleware mounted where `baseUrl` points. */
type Target = { route: object } | { route?: undefined };

const MAX_DEPTH = 32;
/** Distinct prefixes remembered per route (or app); a mount path with parameters would grow without bound. */
const MAX_CACHED_PREFIXES = 64;

const byRoute = new WeakMap<object, Map<string, string>>();
const byApp = new WeakMap<object, Map<string, string>>();

/** `/mount/:param` + the route's declared path, for a route matched at `baseUrl` in `app`. */
export function routePattern(route: ExpressRoute, baseUrl: string, app: ExpressApp | undefined): string {
  const text = pathText(route.path);
  if (!baseUrl) return text;
  const prefix = cachedPrefix(byRoute, route, baseUrl, () => resolvePrefix(app, baseUrl, { route }));
  return joinPaths(prefix, text);
}

/** The declared mount path of the middleware that answered at `baseUrl` (no route matched). */
export function mountPattern(baseUrl: string, app: ExpressApp | undefined): string {
  if (!app) return baseUrl;
  return cachedPrefix(byApp, app, baseUrl, () => resolvePrefix(app, baseUrl, {}));
}

function cachedPrefix(cache: WeakMap<object, Map<string, string>>, key: object, baseUrl: string, resolve: () => string): string {
  let known = cache.get(key);
  const hit = known?.get(baseUrl);
  if (hit !== undefined) return hit;
  const prefix = resolve();
  if (!known) cache.set(key, (known = new Map()));
  if (known.size < MAX_CACHED_PREFIXES) known.set(baseUrl, prefix);
  return prefix;
}

function resolvePrefix(app: ExpressApp | undefined, baseUrl: string, target: Target): string {
  if (!app) return baseUrl;
  const apps: ExpressApp[] = [];
  for (let a: ExpressApp | undefined = app; a && apps.length < MAX_DEPTH; a = a.parent) apps.push(a);
  const root = apps[apps.length - 1]!;
  const rootRouter = routerOfApp(root);
  const found = rootRouter && walk(rootRouter, baseUrl, target, apps, root, 0);
  if (found !== undefined) return found;
  // The app was reached some way we cannot see (e.g. `router.use(subApp)` from a router we do
  // not hold): keep the unexplained start as requested and name the rest.
  const inner = routerOfApp(app);
  if (inner) {
    for (let i = baseUrl.indexOf('/', 1); i > 0; i = baseUrl.indexOf('/', i + 1)) {
      const rest = walk(inner, baseUrl.slice(i), target, apps, app, 0);
      if (rest !== undefined) return baseUrl.slice(0, i) + rest;
    }
  }
  return baseUrl;
}

interface SubRouter {
  router: ExpressRouter;
  app: ExpressApp | undefined;
  /** The declared mount path when the layer's own is less exact (a sub-app's `mountpath`). */
  pattern?: string;
}

/** Depth-first search of the layers that lead to the target, following `path` as Express did. */
function walk(
  router: ExpressRouter,
  path: string,
  target: Target,
  apps: ExpressApp[],
  owner: ExpressApp | undefined,
  depth: number,
): string | undefined {
  const stack = router.stack;
  if (depth > MAX_DEPTH || !Array.isArray(stack)) return undefined;
  for (const layer of stack) {
    if (layer.route) {
      if (target.route !== undefined && layer.route === target.route && path === '') return '';
      continue;
    }
    const subs = subRoutersOf(layer, apps, owner);
    // Plain middleware holds no routes.
    if (!subs && target.route !== undefined) continue;
    const m = matchPrefix(layer, path);
    if (!m) continue;
    const rest = path.slice(m.consumed.length);
    if (!subs) {
      if (rest === '') return m.pattern;
      continue;
    }
    for (const sub of subs) {
      if (sub.router === router) continue;
      const inner = walk(sub.router, rest, target, apps, sub.app ?? owner, depth + 1);
      if (inner !== undefined) return (sub.pattern ?? m.pattern) + inner;
    }
  }
  return undefined;
}

function subRoutersOf(layer: ExpressLayer, apps: ExpressApp[], owner: ExpressApp | undefined): SubRouter[] | undefined {
  const router = asRouter(layer.handle);
  if (router) return [{ router, app: undefined }];
  const app = asApp(layer.handle);
  if (app) {
    const r = routerOfApp(app);
    return r ? [{ router: r, app }] : undefined;
  }
  if (!isMountedAppLayer(layer)) return undefined;
  // `app.use(path, subApp)` hides the sub-app in a closure; the request's own app chain says
  // which sub-apps hang under this app.
  const subs: SubRouter[] = [];
  for (const a of apps) {
    if (a.parent !== owner || a === owner) continue;
    const r = routerOfApp(a);
    if (r) subs.push({ router: r, app: a, pattern: typeof a.mountpath === 'string' ? trimSlash(a.mountpath) : undefined });
  }
  return subs.length > 0 ? subs : undefined;
}

/** Joins a mount prefix and a route path without doubling or dangling slashes. */
function joinPaths(prefix: string, path: string): string {
  if (!prefix) return path || '/';
  if (!path || path === '/') return prefix;
  return prefix.endsWith('/') && path.startsWith('/') ? prefix + path.slice(1) : prefix + path;
}

function trimSlash(p: string): string {
  return p === '/' ? '' : p.replace(/\/+$/, '');
}

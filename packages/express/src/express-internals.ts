/**
 * The few parts of Express's router this adapter reads, in the shapes of Express 4 (its own
 * router: `layer.regexp` + `layer.keys`) and Express 5 (`router` 2.x: `layer.match()`, and
 * `layer.rawPath` in recent versions). Read-only: nothing here changes routing.
 */
import { decodePathSegment } from '@obs/core/http';

/** A layer of a router stack: a middleware, a mounted router or app, or a route. */
export interface ExpressLayer {
  handle?: unknown;
  route?: object;
  name?: string;
  /** Express 4. */
  regexp?: RegExp & { fast_slash?: boolean; fast_star?: boolean };
  /** Express 4. */
  keys?: Array<{ name: string | number }>;
  /** Express 5 (`router` >= 2.3): the path the layer was declared with. */
  rawPath?: unknown;
  /** Express 5. */
  match?: (path: string) => unknown;
  /** Older `router` 2.x store the last match on the layer. */
  path?: string;
  params?: Record<string, string>;
}

/** A router: what `express.Router()` returns and what an app routes with. */
export interface ExpressRouter {
  stack: ExpressLayer[];
}

/** An Express application, as far as mounting is concerned. */
export interface ExpressApp {
  mountpath?: unknown;
  parent?: ExpressApp;
  /** Express 4. */
  _router?: ExpressRouter;
  /** Express 4. */
  lazyrouter?: () => void;
  /** Express 5 (a getter; Express 4 throws here). */
  router?: ExpressRouter;
}

/** A route: `route.path` is the pattern it was declared with. */
export interface ExpressRoute {
  path?: unknown;
}

/** The router of an app, if it has one yet. */
export function routerOfApp(app: ExpressApp): ExpressRouter | undefined {
  try {
    // Express 4 throws on `app.router`; its router lives in `_router`, created lazily.
    return typeof app.lazyrouter === 'function' ? app._router : app.router;
  } catch {
    return undefined;
  }
}

/** The handle of a layer as a router, when it is one. */
export function asRouter(handle: unknown): ExpressRouter | undefined {
  if (typeof handle !== 'function') return undefined;
  const h = handle as unknown as { stack?: unknown; handle?: unknown; use?: unknown };
  return Array.isArray(h.stack) && typeof h.handle === 'function' && typeof h.use === 'function' ? (h as ExpressRouter) : undefined;
}

/** The handle of a layer as an Express app, when an app was used as a plain handler (`router.use(app)`). */
export function asApp(handle: unknown): ExpressApp | undefined {
  if (typeof handle !== 'function') return undefined;
  const h = handle as unknown as { handle?: unknown; set?: unknown };
  return typeof h.handle === 'function' && typeof h.set === 'function' ? (h as ExpressApp) : undefined;
}

/** Whether the layer is the wrapper `app.use(path, subApp)` installs (the sub-app is in a closure). */
export function isMountedAppLayer(layer: ExpressLayer): boolean {
  return layer.name === 'mounted_app' || (layer.handle as { name?: string } | undefined)?.name === 'mounted_app';
}

/** The part of a path a mount layer matched, and that part as a pattern (`/users/:id`). */
export interface PrefixMatch {
  consumed: string;
  pattern: string;
}

/** Matches a mount (non-route) layer against the start of `path`. */
export function matchPrefix(layer: ExpressLayer, path: string): PrefixMatch | undefined {
  try {
    if (layer.regexp) return matchExpress4(layer, layer.regexp, path);
    if (typeof layer.match === 'function') return matchRouter2(layer, path);
  } catch {
    // A layer we cannot read is a layer we do not name.
  }
  return undefined;
}

const withIndices = new WeakMap<RegExp, RegExp>();

/**
 * Express 4 keeps only the compiled regexp of a mount path, so the pattern is rebuilt from the
 * match: each captured parameter's span of the matched text becomes `:name`.
 */
function matchExpress4(
  layer: ExpressLayer,
  regexp: RegExp & { fast_slash?: boolean; fast_star?: boolean },
  path: string,
): PrefixMatch | undefined {
  if (regexp.fast_slash) return { consumed: '', pattern: '' };
  if (regexp.fast_star) return { consumed: path, pattern: '*' };
  let re = withIndices.get(regexp);
  if (!re) {
    re = new RegExp(regexp.source, regexp.flags.replace(/[gy]/g, '') + (regexp.flags.includes('d') ? '' : 'd'));
    withIndices.set(regexp, re);
  }
  const m = re.exec(path);
  if (m?.index !== 0) return undefined;
  const consumed = m[0];
  const indices = m.indices;
  let pattern = '';
  let pos = 0;
  for (let i = 1; i < m.length; i++) {
    const span = indices?.[i];
    if (!span || span[0] < pos) continue;
    const name = layer.keys?.[i - 1]?.name;
    pattern += consumed.slice(pos, span[0]) + (typeof name === 'string' ? `:${name}` : '*');
    pos = span[1];
  }
  pattern += consumed.slice(pos);
  return { consumed, pattern: trimTrailingSlash(pattern) };
}

type Router2Match = { path?: string; params?: Record<string, string>; pattern?: unknown };

/** Express 5: the declared path (`rawPath`, or the array entry that matched), else the match with its parameters put back. */
function matchRouter2(layer: ExpressLayer, path: string): PrefixMatch | undefined {
  const result = layer.match!(path) as Router2Match | boolean;
  if (!result) return undefined;
  // router < 2.3 returns `true` and keeps the match on the layer.
  const m: Router2Match = result === true ? { path: layer.path, params: layer.params } : result;
  const consumed = typeof m.path === 'string' ? m.path : '';
  const declared = m.pattern !== undefined ? m.pattern : layer.rawPath;
  const pattern =
    typeof declared === 'string' ? declared : declared instanceof RegExp ? String(declared) : parameterise(consumed, m.params);
  return { consumed, pattern: trimTrailingSlash(pattern) };
}

/** Puts parameter names back in place of their values, segment by segment. */
function parameterise(path: string, params: Record<string, string> | undefined): string {
  if (!params) return path;
  const segments = path.split('/');
  const used = new Set<number>();
  for (const [name, value] of Object.entries(params)) {
    const i = segments.findIndex((s, idx) => !used.has(idx) && s.length > 0 && decodePathSegment(s) === value);
    if (i === -1) continue;
    segments[i] = /^\d+$/.test(name) ? '*' : `:${name}`;
    used.add(i);
  }
  return segments.join('/');
}

/** The declared path of a route as text: strings as written, regexps as `/source/flags`, arrays joined with `|`. */
export function pathText(path: unknown): string {
  if (typeof path === 'string') return path;
  if (path instanceof RegExp) return String(path);
  if (Array.isArray(path)) return path.map(pathText).join('|');
  return '';
}

function trimTrailingSlash(p: string): string {
  return p.length > 0 && p.endsWith('/') ? p.replace(/\/+$/, '') : p;
}

import { trace } from '@opentelemetry/api';
import { decodePathSegment } from '@obs/core/http';

type RouteParams = Record<string, string | string[] | undefined>;

/**
 * The route pattern of the running route handler as Next.js reports it: the `next.route` attribute of
 * its active `executing api route (app) /api/chat/[id]` span. Undefined when Next is not tracing.
 */
export function routeFromActiveNextSpan(): string | undefined {
  const span = trace.getActiveSpan() as { attributes?: Record<string, unknown> } | undefined;
  const route = span?.attributes?.['next.route'];
  return typeof route === 'string' && route.startsWith('/') ? route : undefined;
}

/**
 * Rebuilds the route pattern from the path and the handler's params: each param's value is put back
 * as `[name]` (`[...name]` for a catch-all), matching segments from the end of the path, since dynamic
 * segments usually come last. `/api/chat/42` with `{ id: '42' }` gives `/api/chat/[id]`.
 */
export function routeFromParams(path: string, params: RouteParams | undefined): string {
  const entries = params ? Object.entries(params) : [];
  if (entries.length === 0) return path;
  const segments: (string | null)[] = path.split('/');
  const taken = new Set<number>();
  // Params come in route order; matching the last one first keeps `/a/[x]/b/[y]` with x === y right.
  for (const [name, value] of entries.reverse()) {
    if (Array.isArray(value)) replaceRun(segments, taken, name, value);
    else if (typeof value === 'string') replaceOne(segments, taken, name, value);
  }
  const out = segments.filter((s): s is string => s !== null).join('/');
  return out || '/';
}

function replaceOne(segments: (string | null)[], taken: Set<number>, name: string, value: string): void {
  for (let i = segments.length - 1; i >= 1; i--) {
    if (!taken.has(i) && segments[i] !== null && decodePathSegment(segments[i]!) === value) {
      segments[i] = `[${name}]`;
      taken.add(i);
      return;
    }
  }
}

function replaceRun(segments: (string | null)[], taken: Set<number>, name: string, values: string[]): void {
  if (values.length === 0) return;
  for (let start = segments.length - values.length; start >= 1; start--) {
    let matches = true;
    for (let j = 0; j < values.length && matches; j++) {
      const s = segments[start + j];
      matches = !taken.has(start + j) && s !== null && s !== undefined && decodePathSegment(s) === values[j];
    }
    if (!matches) continue;
    segments[start] = `[...${name}]`;
    taken.add(start);
    for (let j = 1; j < values.length; j++) {
      segments[start + j] = null;
      taken.add(start + j);
    }
    return;
  }
}

/**
 * The route of an `onRequestError` context's `routePath` (`/blog/[slug]/page`, `/api/x/route`,
 * `/(shop)/cart/page`): the URL pattern, without the file name, route groups or parallel-route slots.
 */
export function routeFromRoutePath(routePath: string | undefined): string | undefined {
  if (!routePath) return undefined;
  const segments = routePath.split('/').filter((s) => s && !/^\(.*\)$/.test(s) && !s.startsWith('@'));
  const last = segments[segments.length - 1];
  if (last === 'page' || last === 'route' || last === 'default') segments.pop();
  return `/${segments.join('/')}`;
}

/** The path of a `path?query` string. */
export function pathOf(pathWithQuery: string): string {
  const q = pathWithQuery.search(/[?#]/);
  return q === -1 ? pathWithQuery : pathWithQuery.slice(0, q);
}

/**
 * Matches a request's method and path against a table of routes; the route modules build the
 * tables, the server composes them.
 */
import type { RouteAuth } from './auth.js';

/** One route: its methods (`*` for any), path pattern, who may call it, and its handler. */
export interface Route<H> {
  methods: readonly string[];
  /**
   * The path: literal segments, `:name` for one segment (its value is URI-decoded), and a last
   * `*name` for the rest of the path.
   */
  path: string;
  /** Default `secret`. Only the public API routes read it; the viewer has its own door. */
  auth?: RouteAuth;
  handle: H;
}

/** A matched route and the values of its path parameters. */
export interface RouteMatch<H> {
  route: Route<H>;
  params: Record<string, string>;
}

interface Compiled<H> {
  route: Route<H>;
  pattern: RegExp;
  names: string[];
}

/** A route table, matched in order: the first route whose method and path match wins. */
export class Router<H> {
  private readonly routes: Compiled<H>[];

  constructor(routes: readonly Route<H>[]) {
    this.routes = routes.map(compile);
  }

  /** The first route for this method and path; `HEAD` is answered by a `GET` route (Node.js sends no body for it). */
  match(method: string, path: string): RouteMatch<H> | undefined {
    for (const { route, pattern, names } of this.routes) {
      const allowed = route.methods.includes(method) || route.methods.includes('*') || (method === 'HEAD' && route.methods.includes('GET'));
      if (!allowed) continue;
      const m = pattern.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      names.forEach((name, i) => {
        params[name] = decodeSegment(m[i + 1]!);
      });
      return { route, params };
    }
    return undefined;
  }
}

function compile<H>(route: Route<H>): Compiled<H> {
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) {
        names.push(segment.slice(1));
        return '([^/]+)';
      }
      if (segment.startsWith('*')) {
        names.push(segment.slice(1));
        return '(.+)';
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}$`), names };
}

/** A path segment as sent (`%2F` and friends decoded); the raw text when it is not valid. */
export function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

import { NodeRequest } from '@obs/core/http';
import type { Request, Response } from 'express';
import type { ExpressApp, ExpressRoute } from './express-internals.js';
import { mountPattern, routePattern } from './route-pattern.js';

/**
 * What only Express knows about a request core's Node.js layer observes: the route it matched
 * (seen when Express assigns `req.route`), and the mount path that answered when no route did.
 * Core ends it when the response closes; `beforeEnd` names the root from that knowledge.
 */
export class ExpressRequest extends NodeRequest<Request, Response> {
  /** `req.route` as last assigned (the accessor reads it here). */
  routeValue: unknown;
  private route?: ExpressRoute;
  private routeBase = '';
  private routeApp?: ExpressApp;
  private responseBase?: string;
  private responseApp?: ExpressApp;

  /**
   * Express assigned `req.route`: remember where it matched (the last route wins, like the
   * handler that answers). The request is routed, so app-level auth ran: identify may run, at
   * the next span (after route-level auth) or at the end.
   */
  onRoute(route: unknown): void {
    this.routeValue = route;
    if (route && typeof route === 'object' && route !== this.route) {
      this.route = route as ExpressRoute;
      this.routeBase = this.req.baseUrl ?? '';
      // Only a mounted route needs its app to name the mount; reading `req.app` costs every
      // request an inline-cache miss (each Express request has its own hidden class).
      this.routeApp = this.routeBase ? (this.req.app as unknown as ExpressApp) : undefined;
      this.ro.allowIdentify();
    }
  }

  /** The response is about to end: remember where, for requests no route answered. */
  onResponseEnd(): void {
    if (this.route || this.responseBase !== undefined) return;
    this.responseBase = this.req.baseUrl ?? '';
    this.responseApp = this.responseBase ? (this.req.app as unknown as ExpressApp) : undefined;
  }

  /** `METHOD /route/:param`, `METHOD /mount/path` (middleware under a mount), else `METHOD <unmatched>`. */
  protected override beforeEnd(): void {
    let pattern: string | undefined;
    if (this.route) pattern = routePattern(this.route, this.routeBase, this.routeApp);
    else if (this.rawRes.statusCode !== 404 && this.responseBase) pattern = mountPattern(this.responseBase, this.responseApp);
    if (pattern) this.ro.setRoute(pattern);
    else this.ro.setUnmatched();
  }
}

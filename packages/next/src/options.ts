import type { ObsHttpOptions, ObsInitOptions } from '@obs/core';

/** Options of `registerObs`: those of core's `initObs`, plus what is specific to Next.js. */
export interface RegisterObsOptions extends ObsInitOptions {
  /**
   * Export Next.js's own infrastructure spans (instrumentation scope `next.js`: `BaseServer.handleRequest`,
   * `render route (app) ...`, `executing api route (app) ...`). Default false: they are noise in an
   * LLM trace view, and obs observations whose parent is one of them are attached to the nearest
   * exported ancestor instead, so traces stay whole.
   */
  keepNextSpans?: boolean;
  /**
   * Flush when Next.js finishes a request whose trace has observations (server components, server
   * actions, unwrapped route handlers), under the platform's `waitUntil` where there is one. Default true.
   */
  flushAfterResponse?: boolean;
}

/** Options of `withObs`: the shared adapter vocabulary (`ObsHttpOptions`), plus the route and flushing. */
export interface WithObsOptions<Req extends Request = Request> extends ObsHttpOptions<Req, Response> {
  /**
   * The route as written in the app directory, e.g. `/api/chat/[id]`. Default: what Next.js reports
   * for the running route handler, else the path with the values of `params` put back as `[name]`.
   */
  route?: string;
  /**
   * Flush the request's spans and scores once the response (or its stream) has ended, through `after()`
   * (or `waitUntil`), so a serverless function that freezes after responding loses nothing. Default true.
   */
  flushAfterResponse?: boolean;
}

/** What Next.js passes as the second argument of `onRequestError`. */
export interface RequestErrorContext {
  routerKind: 'Pages Router' | 'App Router' | string;
  /** The route file path, e.g. `/blog/[slug]/page` or `/api/chat/[id]/route`. */
  routePath: string;
  routeType: 'render' | 'route' | 'action' | 'proxy' | 'middleware' | string;
  renderSource?: string;
  revalidateReason?: 'on-demand' | 'stale' | undefined | string;
  renderType?: string;
}

/** What Next.js passes as the request of `onRequestError`. */
export interface RequestErrorInfo {
  /** Resource path with the query, e.g. `/blog?name=foo`. */
  path: string;
  method: string;
  headers: Record<string, string | string[] | undefined>;
}

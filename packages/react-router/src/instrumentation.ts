/**
 * The server instrumentation React Router calls around each request and each route handler: the
 * request is the trace's root (named `METHOD <route pattern>` once React Router has matched it),
 * and every loader and action a child observation named `loader <route id>` / `action <route id>`,
 * in whose context the handler's own spans (LLM calls, `observe`) start. 8.1+ reports the route
 * and status to the request instrumentation; on 7.x and 8.0 (`unstable_instrumentations`) the
 * route comes from the pattern the handlers were told, the status from `obsMiddleware()` or a
 * handler's error (request-record.ts).
 */
import { context } from '@opentelemetry/api';
import { getObsHandle, initObs, startActiveObservation } from '@obs/core';
import { FetchHttpObserver, type FetchRequest } from '@obs/core/http';
import { AdapterGuard, warnMisplacedOptions } from '@obs/core/kit';
import type { ObsReactRouterOptions, ObsRequestInfo } from './options.js';
import { activeRecord, middlewareRan, notePattern, type RequestRecord, withRecord } from './request-record.js';

/** Whether this React Router reports the status to the request instrumentation (8.1+): seen once, known. */
let reportsStatus = false;

type Outcome = { status: 'success'; error: undefined } | { status: 'error'; error: Error };
type RequestOutcome = Outcome & { statusCode?: number; meta?: { pattern?: string } | undefined };
type Instrument<I, R = Outcome> = (handler: () => Promise<R>, info: I) => Promise<void>;
type HandlerInfo = { request: Request; context: ObsRequestInfo['context'] };
type RouteInfo = { params?: Record<string, string | undefined>; pattern?: string; unstable_pattern?: string };

/** React Router's `ServerInstrumentation`, structurally (8.1+: its request outcome names the route and status; 7.x/8.0: neither). */
export interface ObsServerInstrumentation {
  handler(handler: { instrument(i: { request?: Instrument<HandlerInfo, RequestOutcome> }): void }): void;
  route(route: {
    id: string;
    instrument(i: { loader?: Instrument<RouteInfo>; action?: Instrument<RouteInfo>; middleware?: Instrument<RouteInfo> }): void;
  }): void;
}

/**
 * The instrumentation to export from `app/entry.server.tsx`: `export const instrumentations =
 * [obsInstrumentation()]` (React Router 8.x; 7.x: `export const unstable_instrumentations`). Each request is one
 * trace whose root has the request's input (body or query), its status and errors and
 * `identify`'s user and session on every span; loaders and actions are child observations. Sets
 * tracing up itself on the first request when nothing has (from `OBS_*` and `options.obs`).
 */
export function obsInstrumentation(options: ObsReactRouterOptions = {}): ObsServerInstrumentation {
  warnMisplacedOptions('obsInstrumentation', options);
  const { obs: init, middleware = false, ...http } = options;
  const guard = new AdapterGuard('@obs/react-router');
  const layer = new FetchHttpObserver<Request, ObsRequestInfo>(http, { adapter: '@obs/react-router' });

  const request: Instrument<HandlerInfo, RequestOutcome> = async (handle, info) => {
    await guard.around<unknown>(async (next) => {
      if (!getObsHandle()) initObs(init);
      const observed = layer.start(info.request, { subject: info });
      if (!observed) return next();
      // Once React Router has reported a status (8.1+), no request needs the record.
      const record: RequestRecord | undefined = reportsStatus ? undefined : {};
      let outcome: RequestOutcome | undefined;
      try {
        outcome = (await context.with(record ? withRecord(observed.ro.context, record) : observed.ro.context, next)) as RequestOutcome;
      } finally {
        if (outcome && 'statusCode' in outcome) reportsStatus = true;
        if (outcome && !reportsStatus && record) endUnreported(observed, outcome, record, info.request.method);
        else end(observed, outcome);
      }
      return outcome;
    }, handle);
  };

  const child =
    (kind: string, routeId: string): Instrument<RouteInfo> =>
    async (handle, info) => {
      await guard.around<unknown>(async (next) => {
        const pattern = info.pattern ?? info.unstable_pattern;
        const record = activeRecord();
        notePattern(record, pattern);
        await startActiveObservation(
          `${kind} ${routeId}`,
          async (observation) => {
            observation.update({
              input: info.params && Object.keys(info.params).length > 0 ? { params: info.params } : undefined,
              metadata: { routeId, ...(pattern ? { pattern } : {}) },
            });
            const outcome = (await next()) as Outcome;
            if (outcome.status === 'error') {
              observation.recordError(outcome.error);
              if (record) record.error ??= outcome.error;
            }
          },
          { asType: 'span' },
        );
      }, handle);
    };

  return {
    handler(handler) {
      guard.run(() => handler.instrument({ request }));
    },
    route(route) {
      guard.run(() =>
        route.instrument({
          loader: child('loader', route.id),
          action: child('action', route.id),
          ...(middleware ? { middleware: child('middleware', route.id) } : {}),
        }),
      );
    },
  };
}

/** Names the root after the route React Router matched and ends it with the status it answered. */
function end(observed: FetchRequest<Request, ObsRequestInfo>, outcome: RequestOutcome | undefined): void {
  const status = outcome?.statusCode ?? (outcome ? undefined : 500);
  const route = routeOf(outcome?.meta?.pattern, status, observed.path);
  if (route !== undefined) observed.ro.setRoute(route);
  else observed.ro.setUnmatched();
  if (outcome?.status === 'error') observed.ro.noteError(outcome.error);
  observed.status = status;
  observed.settle(status);
}

/**
 * Names and ends the root on 7.x/8.0, whose outcome has no route and no status: the route from the
 * pattern the handlers noted, else `METHOD <unmatched>` when `obsMiddleware()` runs and did not see
 * the request, else `METHOD` alone (the route is unknown: OpenTelemetry's name for that case, never
 * the raw path). The status is what `obsMiddleware()` saw, else 500 when a handler threw an Error
 * (React Router's answer to one) or the request handler failed, else unknown.
 */
function endUnreported(observed: FetchRequest<Request, ObsRequestInfo>, outcome: Outcome, record: RequestRecord, method: string): void {
  const error = outcome.status === 'error' ? outcome.error : record.error;
  const status = record.status ?? (error ? 500 : undefined);
  const route = routeOf(record.pattern, status, observed.path);
  if (route !== undefined) observed.ro.setRoute(route);
  else if (record.pattern !== undefined || middlewareRan()) observed.ro.setUnmatched();
  else observed.ro.setName(method.toUpperCase());
  if (error) observed.ro.noteError(error);
  observed.status = status;
  observed.settle(status);
}

/**
 * The route pattern as React Router reports it, with its leading slash (`chat/:id` comes as is);
 * undefined for a request no route matched: a 404 whose only match is the root layout rendering
 * its error boundary (pattern `''`) for another path than `/`.
 */
function routeOf(pattern: string | undefined, status: number | undefined, path: string): string | undefined {
  if (pattern === undefined) return undefined;
  const route = pattern.startsWith('/') ? pattern : `/${pattern}`;
  if (status === 404 && route === '/' && path !== '/') return undefined;
  return route;
}

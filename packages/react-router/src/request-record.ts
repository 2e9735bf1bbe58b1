/**
 * What a request's root learns from inside the request on React Router 7.x and 8.0, whose request
 * instrumentation is told neither the matched route nor the status: the loaders, actions and
 * middleware that run in the request's context note the route pattern React Router matched, the
 * first error a handler threw, and (through `obsMiddleware()`) the status answered. One record per
 * request, carried in the OpenTelemetry context the request's handlers run in. 8.1+ reports the
 * route and status itself and never reads it.
 */
import { type Context, context, createContextKey } from '@opentelemetry/api';

/** What one request's handlers noted about it. */
export interface RequestRecord {
  /** The full pattern React Router matched (`/chat/:id`), from the first handler that ran. */
  pattern?: string;
  /** The status the root middleware saw answered. */
  status?: number;
  /** The first Error a loader, action or middleware threw. */
  error?: Error;
}

const RECORD_KEY = createContextKey('@obs/react-router request record');

/** Whether `obsMiddleware()` has run in this process: then a request it did not see matched no route. */
let middlewareRuns = false;

/** `ctx` carrying a new, empty record for one request. */
export function withRecord(ctx: Context, record: RequestRecord): Context {
  return ctx.setValue(RECORD_KEY, record);
}

/** The record of the request being handled, when one of ours is. */
export function activeRecord(): RequestRecord | undefined {
  return context.active().getValue(RECORD_KEY) as RequestRecord | undefined;
}

/** Notes the matched pattern React Router handed a loader, action or middleware (first wins). */
export function notePattern(record: RequestRecord | undefined, pattern: string | undefined): void {
  if (record && record.pattern === undefined && pattern !== undefined) record.pattern = pattern;
}

/** Marks that `obsMiddleware()` runs in this app (it runs for every request a route matched). */
export function noteMiddlewareRun(): void {
  middlewareRuns = true;
}

/** Whether `obsMiddleware()` ran in this process: then a request it did not see matched no route. */
export function middlewareRan(): boolean {
  return middlewareRuns;
}

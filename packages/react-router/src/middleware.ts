/**
 * `obsMiddleware()`: the root route middleware that tells `obsInstrumentation()` what React Router
 * 7.x and 8.0 do not tell their request instrumentation: the route every matched request took
 * (also when no loader or action ran) and the status it answered. Read-only: it passes the
 * response on untouched. Unneeded on 8.1+, whose instrumentation reports both (harmless there).
 */
import { AdapterGuard } from '@obs/core/kit';
import { activeRecord, noteMiddlewareRun, notePattern } from './request-record.js';

/** What React Router hands a server middleware, structurally (7.x names the pattern `unstable_pattern`). */
export interface ObsMiddlewareArgs {
  request: Request;
  pattern?: string;
  unstable_pattern?: string;
}

/** A React Router server middleware function, structurally. */
export type ObsMiddlewareFunction = (args: ObsMiddlewareArgs, next: () => Promise<Response>) => Promise<Response>;

/**
 * The middleware to put first in `app/root.tsx`'s `middleware` on React Router 7.9.5+ with
 * `future.v8_middleware` (or 8.0): `export const middleware = [obsMiddleware()]`. With it,
 * `obsInstrumentation()` names every request by its route and records its status, as on 8.1+.
 */
export function obsMiddleware(): ObsMiddlewareFunction {
  const guard = new AdapterGuard('@obs/react-router');
  return (args, next) =>
    guard.around<Response>(async (handle) => {
      noteMiddlewareRun();
      const record = activeRecord();
      notePattern(record, args.pattern ?? args.unstable_pattern);
      const response = await handle();
      if (record && typeof response?.status === 'number') record.status = response.status;
      return response;
    }, next);
}

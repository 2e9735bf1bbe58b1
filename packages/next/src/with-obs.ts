import { FetchHttpObserver, delay, flushSoon, type FetchRequest } from '@obs/core/http';
import { warnMisplacedOptions } from '@obs/core/kit';
import type { ObsHandle } from '@obs/core';
import { controlFlowStatus, markErrorRecorded } from './errors.js';
import { runAfterResponse } from './flush.js';
import { guard } from './guard.js';
import type { WithObsOptions } from './options.js';
import { ensureObs } from './register.js';
import { routeFromActiveNextSpan, routeFromParams } from './route-pattern.js';
import { isBuildPhase } from './runtime.js';

/** After the response closed, how long a body Next never finished reading may take to end. */
const CLOSE_GRACE_MS = 2000;

/**
 * Wraps an App Router route handler so each request is one obs trace: a root observation named
 * `METHOD /route/[param]` with the request's input (JSON body, form or query), the response's output
 * (JSON, text, or a streamed body reassembled as it streams, never buffered), `identify`'s attributes on
 * every span, the trace id in the `x-obs-trace-id` response header, errors, and a flush after the
 * response so serverless functions lose nothing. Instrumentation failures never reach the handler.
 *
 * @example
 * ```ts
 * // app/api/chat/[id]/route.ts
 * export const POST = withObs(async (req, { params }) => Response.json({ answer: await chat(await req.json()) }), {
 *   identify: (req) => ({ userId: req.headers.get('x-user-id') ?? undefined }),
 * });
 * ```
 */
export function withObs<Req extends Request = Request, Ctx = unknown>(
  handler: (req: Req, ctx: Ctx) => Response | Promise<Response>,
  options: WithObsOptions<Req> = {},
): (req: Req, ctx: Ctx) => Promise<Response> {
  warnMisplacedOptions('withObs', options, (key) => `registerObs({ ${key} }) in instrumentation.ts`);
  let layer: FetchHttpObserver<Req> | undefined;
  return async function obsRouteHandler(req: Req, ctx: Ctx): Promise<Response> {
    if (isBuildPhase()) return handler(req, ctx);
    const handle = ensureObs();
    if (!handle) return handler(req, ctx);
    layer ??= new FetchHttpObserver<Req>(options, { adapter: 'withObs', statusOfThrow: nextThrowStatus });
    const request = await startRequest(layer, options, req, ctx);
    if (!request) return handler(req, ctx);
    try {
      return await request.run(() => handler(req, ctx));
    } finally {
      if (options.flushAfterResponse !== false) flushAfterResponse(handle, request);
    }
  };
}

/** Next's control-flow throws (`redirect()`, `notFound()`) are answers; a real error is marked for `onRequestError`. */
function nextThrowStatus(error: unknown): number | undefined {
  const status = controlFlowStatus(error);
  if (status === undefined) markErrorRecorded(error);
  return status;
}

/** Starts the root named after the Next route, with `identify` awaited so the handler's spans all carry it. */
async function startRequest<Req extends Request>(
  layer: FetchHttpObserver<Req>,
  options: WithObsOptions<Req>,
  req: Req,
  ctx: unknown,
): Promise<FetchRequest<Req> | undefined> {
  const route = options.route ?? routeFromActiveNextSpan();
  const path = (req as { nextUrl?: { pathname?: string } }).nextUrl?.pathname;
  const request = layer.start(req, { path, route });
  if (!request) return undefined;
  await guard.settle(
    async () => {
      await request.ro.identify();
      if (!route) request.ro.setRoute(routeFromParams(request.path, await paramsOf(ctx)));
    },
    undefined,
    'the request is named by its path',
  );
  return request;
}

/** Flushes the request's spans after the response, through `after()` or the platform's `waitUntil`. */
function flushAfterResponse(handle: ObsHandle, request: FetchRequest): void {
  runAfterResponse(async (afterClose) => {
    // after() runs once the response closed: a body still unfinished by then will not be read.
    if (afterClose) await Promise.race([request.done, delay(CLOSE_GRACE_MS)]);
    else await request.done;
    request.settle(request.status);
    await request.done;
    await flushSoon(handle);
  });
}

/** The route params: a Promise in Next.js 15+, a plain object before. */
async function paramsOf(ctx: unknown): Promise<Record<string, string | string[] | undefined> | undefined> {
  const params = (ctx as { params?: unknown } | undefined)?.params;
  const value = await params;
  return value && typeof value === 'object' ? (value as Record<string, string | string[] | undefined>) : undefined;
}

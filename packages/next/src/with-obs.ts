import { context } from '@opentelemetry/api';
import { HttpObserver, logger, warnMisplacedOptions, type ObsHandle, type RequestObservation } from '@obs/core';
import { controlFlowStatus, markErrorRecorded } from './errors.js';
import { flushSoon, runAfterResponse } from './flush.js';
import type { WithObsOptions } from './options.js';
import { ensureObs } from './register.js';
import { readRequestInput } from './request-input.js';
import { observeResponse } from './response-output.js';
import { routeFromActiveNextSpan, routeFromParams } from './route-pattern.js';
import { isBuildPhase } from './runtime.js';

/** How long the end of a request waits for its body copy to be read before recording without it. */
const INPUT_WAIT_MS = 1000;
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
  let observer: HttpObserver<Req, Response> | undefined;
  return async function obsRouteHandler(req: Req, ctx: Ctx): Promise<Response> {
    if (isBuildPhase()) return handler(req, ctx);
    observer ??= new HttpObserver<Req, Response>(options);
    const request = await startRequest(observer, options, req, ctx);
    if (!request) return handler(req, ctx);
    return request.run(() => handler(req, ctx));
  };
}

async function startRequest<Req extends Request>(
  observer: HttpObserver<Req, Response>,
  options: WithObsOptions<Req>,
  req: Req,
  ctx: unknown,
): Promise<TracedRequest<Req> | undefined> {
  let ro: RequestObservation<Req, Response> | undefined;
  try {
    const handle = ensureObs();
    if (!handle) return undefined;
    const path = pathnameOf(req);
    if (observer.ignores(req.method, path, req)) return undefined;
    const route = options.route ?? routeFromActiveNextSpan();
    ro = observer.start({ req, method: req.method, path, route });
    const traced = new TracedRequest(handle, observer, options, ro, req);
    // Identify may read auth state; awaiting it means the handler's spans all carry its attributes.
    await ro.identify();
    if (!route) ro.setRoute(routeFromParams(path, await paramsOf(ctx)));
    return traced;
  } catch (err) {
    logger.warn(`withObs: request not traced: ${String(err)}`);
    ro?.finish();
    return undefined;
  }
}

/** One traced request: runs the handler in the root's context and ends the root when the response has. */
class TracedRequest<Req extends Request> {
  private readonly input?: Promise<void>;
  private settled = false;
  private resolveDone!: () => void;
  private readonly done = new Promise<void>((resolve) => (this.resolveDone = resolve));

  constructor(
    private readonly handle: ObsHandle,
    private readonly observer: HttpObserver<Req, Response>,
    private readonly options: WithObsOptions<Req>,
    private readonly ro: RequestObservation<Req, Response>,
    req: Req,
  ) {
    const capture = options.captureInput;
    if (capture === false) return;
    if (typeof capture === 'function') {
      ro.setInput(undefined);
      return;
    }
    const { query, body } = readRequestInput(req, observer.maxChars);
    this.input = body.then((b) => ro.setInput(b, query));
  }

  async run(handler: () => Response | Promise<Response>): Promise<Response> {
    let res: Response;
    try {
      res = await context.with(this.ro.context, handler);
    } catch (err) {
      const status = controlFlowStatus(err);
      if (status === undefined) {
        this.ro.recordError(err);
        markErrorRecorded(err);
      }
      this.end(status ?? 500, false);
      this.scheduleFlush(undefined);
      throw err;
    }
    let observed: Response;
    try {
      observed = this.observe(res);
    } catch (err) {
      logger.warn(`withObs: response not observed: ${String(err)}`);
      this.end(statusOf(res), false);
      observed = res;
    }
    this.scheduleFlush(statusOf(res));
    return observed;
  }

  private observe(res: Response): Response {
    if (!isResponse(res)) {
      this.end(undefined, false);
      return res;
    }
    const header = this.observer.traceIdHeader;
    return observeResponse(res, header ? { [header]: this.ro.traceId } : {}, this.ro.context, {
      chunk: (chunk, contentType) => this.ro.addOutputChunk(chunk, res, contentType),
      binary: (description) => this.ro.setOutput(description, res),
      end: (how, error) => {
        if (how === 'error') this.ro.recordError(error);
        this.end(res.status, how === 'cancelled');
      },
    });
  }

  /** Ends the root once its input is known (bounded wait); idempotent. */
  private end(statusCode: number | undefined, aborted: boolean): void {
    if (this.settled) return;
    this.settled = true;
    const finish = () => {
      this.ro.finish({ statusCode, aborted });
      this.resolveDone();
    };
    if (!this.input) return finish();
    void Promise.race([this.input, delay(INPUT_WAIT_MS)]).then(finish, finish);
  }

  private scheduleFlush(statusCode: number | undefined): void {
    if (this.options.flushAfterResponse === false) return;
    runAfterResponse(async (afterClose) => {
      // after() runs once the response closed: a body still unfinished by then will not be read.
      if (afterClose) await Promise.race([this.done, delay(CLOSE_GRACE_MS)]);
      else await this.done;
      this.end(statusCode, false);
      await this.done;
      await flushSoon(this.handle);
    });
  }
}

function pathnameOf(req: Request): string {
  const nextUrl = (req as { nextUrl?: { pathname?: string } }).nextUrl;
  return nextUrl?.pathname ?? new URL(req.url).pathname;
}

/** The route params: a Promise in Next.js 15+, a plain object before. */
async function paramsOf(ctx: unknown): Promise<Record<string, string | string[] | undefined> | undefined> {
  const params = (ctx as { params?: unknown } | undefined)?.params;
  const value = await params;
  return value && typeof value === 'object' ? (value as Record<string, string | string[] | undefined>) : undefined;
}

function isResponse(value: unknown): value is Response {
  return typeof value === 'object' && value !== null && typeof (value as Response).headers?.get === 'function' && 'body' in value;
}

function statusOf(res: unknown): number | undefined {
  const s = (res as { status?: unknown } | undefined)?.status;
  return typeof s === 'number' ? s : undefined;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    (t as { unref?: () => void }).unref?.();
  });
}

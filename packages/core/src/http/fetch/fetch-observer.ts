import { context } from '@opentelemetry/api';
import { logger } from '../../util/logger.js';
import { errorMessage } from '../../tracing/record-error.js';
import type { ObsHttpOptions } from '../options.js';
import { HttpObserver, type RequestObservation } from '../request-observation.js';
import { queryOf, readRequestInput } from './request-input.js';
import { observeResponse } from './response-output.js';
import { unref } from '../../util/timers.js';

/** How long the end of a request waits for its body copy to be read before recording without it. */
const INPUT_WAIT_MS = 1000;

/** Default `unreadBodyMs`. */
const UNREAD_BODY_MS = 10_000;

/** How an adapter uses the fetch layer; fixed when it is created. */
export interface FetchLayerOptions {
  /** Log prefix, e.g. `withObs`. */
  adapter: string;
  /**
   * The status a thrown value stands for when it is how the framework answers, not a failure
   * (Next's `redirect()`/`notFound()`); undefined for a real error (recorded, status 500).
   */
  statusOfThrow?: (error: unknown) => number | undefined;
  /**
   * How long a response body may stay unread (no chunk asked for) before the root ends without
   * its output: a HEAD answer, a runtime that drops the body, a caller of `app.fetch` that never
   * reads it. Once the body is being read the root ends with it, however long it streams.
   * Default 10 s.
   */
  unreadBodyMs?: number;
}

/** What the adapter knows when a request arrives. */
export interface FetchStartInit<Subject = Request> {
  /** URL path without the query string; default: from `req.url`. */
  path?: string;
  /** The parameterised route, when the framework knows it already (else `ro.setRoute` later). */
  route?: string;
  /**
   * What `identify`, `captureInput`, `name` and `ignore` are called with, when the framework
   * hands users something richer than the `Request` (Hono's `Context`); default the `Request`.
   */
  subject?: Subject;
  /**
   * Where the input's body comes from when not from a copy read alongside the handler (the
   * default): a request holding the body the handler read, asked for once the handler returned
   * (Hono's body cache on Deno, where copying the request makes `Deno.serve` warn about its
   * signal); undefined: no body.
   */
  bodyAfterHandler?: () => Promise<Request | undefined>;
}

/**
 * The fetch `Request`/`Response` layer under the Next adapter (and any fetch-based framework: Hono,
 * Remix, a Worker): options compiled once, then per request the root observation, the input read
 * from a copy of the body (never taken from the handler), the handler run in the root's context,
 * and the response passed through as it streams, its text recorded on the way, the trace-id header
 * added, and the root ended when the body ends (done, failed, or cancelled by the client).
 */
export class FetchHttpObserver<Req extends Request = Request, Subject = Req> {
  readonly http: HttpObserver<Subject, Response>;

  constructor(
    options: ObsHttpOptions<Subject, Response>,
    private readonly layer: FetchLayerOptions,
  ) {
    this.http = new HttpObserver<Subject, Response>(options);
  }

  /** Starts a request's root observation; undefined when ignored or when something failed (logged). */
  start(req: Req, init: FetchStartInit<Subject> = {}): FetchRequest<Req, Subject> | undefined {
    let ro: RequestObservation<Subject, Response> | undefined;
    try {
      const path = init.path ?? new URL(req.url).pathname;
      const subject = init.subject ?? (req as unknown as Subject);
      if (this.http.ignores(req.method, path, subject)) return undefined;
      ro = this.http.start({ req: subject, method: req.method, path, route: init.route });
      return new FetchRequest(this.http, this.layer, ro, req, path, init.bodyAfterHandler);
    } catch (err) {
      logger.warn(`${this.layer.adapter}: request not traced: ${errorMessage(err)}`);
      ro?.finish();
      return undefined;
    }
  }
}

/**
 * One fetch request: runs the handler in the root's context and ends the root when the response
 * has: its body read to the end, failed or cancelled; or, for a body nobody reads, after
 * `unreadBodyMs` or at the runtime's end of the request (`endBy`), whichever comes first.
 */
export class FetchRequest<Req extends Request = Request, Subject = Req> {
  /** The response's status (or the status a throw stood for), once the handler returned. */
  status: number | undefined;
  /** Resolves once the root observation ended. */
  readonly done: Promise<void>;
  private readonly input?: Promise<void>;
  /** With `bodyAfterHandler`: starts reading the input once the handler returned. */
  private readInputAfter?: () => void;
  private settled = false;
  private resolveDone!: () => void;
  /** The response body: not handed out yet (`pending`), or `reading` once a chunk was asked for. */
  private body: 'none' | 'pending' | 'reading' = 'none';
  private unreadTimer?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly http: HttpObserver<Subject, Response>,
    private readonly layer: FetchLayerOptions,
    readonly ro: RequestObservation<Subject, Response>,
    req: Req,
    /** URL path without the query string. */
    readonly path: string,
    bodyAfterHandler?: () => Promise<Request | undefined>,
  ) {
    this.done = new Promise<void>((resolve) => (this.resolveDone = resolve));
    const capture = http.options.captureInput;
    if (capture === false) return;
    if (typeof capture === 'function') {
      ro.setInput(undefined);
      return;
    }
    if (bodyAfterHandler) {
      const query = queryOf(req.url);
      this.input = new Promise<void>((resolve) => (this.readInputAfter = resolve)).then(async () => {
        let copy: Request | undefined;
        try {
          copy = await bodyAfterHandler();
        } catch {
          copy = undefined;
        }
        ro.setInput(copy ? await readRequestInput(copy, http.maxChars).body : undefined, query);
      });
      return;
    }
    const { query, body } = readRequestInput(req, http.maxChars);
    this.input = body.then((b) => ro.setInput(b, query));
  }

  /**
   * Runs the handler in the request's context and returns the response to send: the handler's,
   * passed through and observed. A throw is recorded (unless `statusOfThrow` says it is an answer)
   * and rethrown unchanged.
   */
  async run(handler: () => Response | Promise<Response>): Promise<Response> {
    let res: Response;
    try {
      res = await context.with(this.ro.context, handler);
    } catch (err) {
      this.readInputAfter?.();
      const status = this.layer.statusOfThrow?.(err);
      if (status === undefined) this.ro.noteError(err);
      this.status = status ?? 500;
      this.settle(this.status);
      throw err;
    }
    this.status = statusOf(res);
    this.readInputAfter?.();
    try {
      return this.observe(res);
    } catch (err) {
      logger.warn(`${this.layer.adapter}: response not observed: ${errorMessage(err)}`);
      this.settle(this.status);
      return res;
    }
  }

  /**
   * The runtime says the request is over (the Node.js response closed, the request's signal
   * aborted): a body not ended `graceMs` later will not be, and the root ends then: as cancelled
   * when the client had started reading it or had no answer yet.
   */
  endBy(ended: Promise<unknown>, graceMs = 0): void {
    const end = () => {
      if (this.settled) return;
      if (graceMs <= 0) return this.endUnfinished();
      void delay(graceMs).then(() => this.endUnfinished());
    };
    ended.then(end, end);
  }

  /** Ends the root once its input is known (bounded wait); idempotent. */
  settle(statusCode: number | undefined, aborted = false): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.unreadTimer);
    const finish = () => {
      this.ro.finish({ statusCode, aborted });
      this.resolveDone();
    };
    if (!this.input) return finish();
    void Promise.race([this.input, delay(INPUT_WAIT_MS)]).then(finish, finish);
  }

  private observe(res: Response): Response {
    if (!isResponse(res)) {
      this.settle(undefined);
      return res;
    }
    const header = this.http.traceIdHeader;
    this.body = 'pending';
    const observed = observeResponse(res, header ? { [header]: this.ro.traceId } : {}, this.ro.context, {
      start: () => {
        this.body = 'reading';
        clearTimeout(this.unreadTimer);
      },
      chunk: (chunk, contentType) => this.ro.addOutputChunk(chunk, res, contentType),
      binary: (description) => this.ro.setOutput(description, res),
      end: (how, error) => {
        if (how === 'error') this.ro.recordError(error);
        this.settle(res.status, how === 'cancelled');
      },
    });
    if (!this.settled && this.body === 'pending') this.startUnreadTimer();
    return observed;
  }

  private startUnreadTimer(): void {
    const ms = this.layer.unreadBodyMs ?? UNREAD_BODY_MS;
    this.unreadTimer = setTimeout(() => {
      if (this.body === 'pending') this.endUnfinished();
    }, ms);
    // Never what keeps a Node.js process alive.
    unref(this.unreadTimer);
  }

  /**
   * Ends a root whose body did not end: never read (its status, no output), or cut short while
   * read or before the handler answered (cancelled: the client went away).
   */
  private endUnfinished(): void {
    this.settle(this.status, this.body !== 'pending');
  }
}

function isResponse(value: unknown): value is Response {
  return typeof value === 'object' && value !== null && typeof (value as Response).headers?.get === 'function' && 'body' in value;
}

function statusOf(res: unknown): number | undefined {
  const s = (res as { status?: unknown } | undefined)?.status;
  return typeof s === 'number' ? s : undefined;
}

/** Resolves after `ms` without holding the process open. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    unref(t);
  });
}

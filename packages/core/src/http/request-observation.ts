import { context, SpanKind, type Attributes, type Context } from '@opentelemetry/api';
import { ObsAttributes } from '../tracing/attributes.js';
import { logger } from '../util/logger.js';
import { LATE_ATTRIBUTES_KEY, LateAttributes } from '../tracing/late-attributes.js';
import { ObsObservation } from '../tracing/observation.js';
import { errorMessage, recordErrorOnSpan } from '../tracing/record-error.js';
import { mergedAttributes } from '../tracing/propagation.js';
import { IN_OBS_TRACE_KEY } from '../tracing/context-keys.js';
import { getObsTracer } from '../tracing/tracer.js';
import { layer, SPAN_KEY } from '../tracing/layered-context.js';
import { isThenable } from '../util/guards.js';
import { compileIgnore, type IgnoreMatcher } from './ignore.js';
import {
  DEFAULT_MAX_CAPTURE_BYTES,
  DEFAULT_REDACT_KEYS,
  DEFAULT_TRACE_ID_HEADER,
  type IdentifyResult,
  type ObsHttpOptions,
} from './options.js';
import { redactKeySet } from './redact.js';
import { RequestCapture } from './request-capture.js';
import { holdFlushUntil } from '../util/flush-barrier.js';
import type { ObsRequestHandle } from './request-handle.js';
import { isClientErrorStatus } from './status-rule.js';
import { unref } from '../util/unref.js';

/** The name of a request no route matched, after its method: `GET <unmatched>`. */
export const UNMATCHED = '<unmatched>';

/** What a request's context sets: the root as the active span, inside obs work, the late attributes box. */
const REQUEST_KEYS = [SPAN_KEY, IN_OBS_TRACE_KEY, LATE_ATTRIBUTES_KEY] as const;
/** The same without the active span, for `contextOver`. */
const REQUEST_KEYS_OVER = [IN_OBS_TRACE_KEY, LATE_ATTRIBUTES_KEY] as const;

/** How long the end of a request waits for an async `identify` that only started at finish. */
const IDENTIFY_WAIT_MS = 1000;

/** `ObsHttpOptions` compiled once per adapter instance, so requests pay no set-up cost. */
// biome-ignore lint/suspicious/noExplicitAny: Req/Res default to any so a callback typed by no framework still reads its fields (req.user); adapters pass their framework's types
export class HttpObserver<Req = any, Res = any> {
  readonly options: ObsHttpOptions<Req, Res>;
  readonly redactKeys: Set<string>;
  readonly maxChars: number;
  readonly traceIdHeader: string | undefined;
  private readonly ignored: IgnoreMatcher<Req>;

  constructor(options: ObsHttpOptions<Req, Res> = {}) {
    this.options = options;
    this.redactKeys = redactKeySet(options.redactKeys ?? DEFAULT_REDACT_KEYS);
    this.maxChars = Math.max(16, options.maxCaptureBytes ?? DEFAULT_MAX_CAPTURE_BYTES);
    this.traceIdHeader = traceIdHeaderOf(options.traceIdHeader);
    this.ignored = compileIgnore(options.ignore);
  }

  /** Whether this request makes no observation. */
  ignores(method: string, path: string, req: Req): boolean {
    return this.ignored(method.toUpperCase(), path, req);
  }

  /**
   * Starts the root observation of a request. `route` is the parameterised route when the
   * framework knows it already (else call `setRoute` once it does); `parent` is the context
   * to start in (default: the active one, e.g. an incoming `traceparent` extracted by OTel).
   */
  start(init: RequestInit<Req>): RequestObservation<Req, Res> {
    return new RequestObservation(this, init);
  }
}

/** What an adapter knows when a request arrives. */
export interface RequestInit<Req> {
  /** What `identify`, `captureInput` and `name` are called with. */
  req: Req;
  method: string;
  /** URL path without the query string. */
  path: string;
  route?: string;
  parent?: Context;
  /** Extra span attributes (e.g. `url.scheme`, `user_agent.original`). */
  attributes?: Record<string, string | number | boolean>;
  /**
   * Hold the lazy `identify` until `allowIdentify()` (e.g. once the framework routed the request,
   * so route-level auth ran) or an explicit `identify()`; spans started earlier do not trigger it.
   */
  deferIdentify?: boolean;
  /**
   * Not an HTTP request but an invocation the same rules apply to (a queue batch, a scheduled
   * event on a serverless function): the root is named `name` (the `name` option still wins), has
   * span kind `kind` (default `SERVER`), and no HTTP method, path or route (`setRoute` does nothing).
   */
  event?: { name: string; kind?: SpanKind };
}

/** How a request ended. */
export interface FinishInit {
  statusCode?: number;
  /** The client went away before the response was complete. */
  aborted?: boolean;
}

/**
 * One request's root observation: the span named `METHOD /route/:param` with the HTTP
 * attributes of wire contract 2.4, its input and output, identify's trace attributes, errors,
 * and the end. Input and output are serialised at `finish()`, after the response is written,
 * so the request path only keeps references.
 */
// biome-ignore lint/suspicious/noExplicitAny: Req/Res default to any so a callback typed by no framework still reads its fields (req.user); adapters pass their framework's types
export class RequestObservation<Req = any, Res = any> {
  readonly observation: ObsObservation;
  /** Context to run the request's handlers in: the root is active, identify's attributes flow. */
  context: Context;
  private readonly late = new LateAttributes();
  private readonly method: string;
  private route?: string;
  /** The `name` option named the request: routes and identify never rename it. */
  private customName = false;
  /** identify() gave a trace name: the span keeps following the route, the trace keeps that name. */
  private traceNamed = false;
  /** Input and output, kept as references until the end. */
  private readonly capture: RequestCapture<Req, Res>;
  private errored = false;
  /** An error the framework caught (error handler, exception filter): judged at the end by the status. */
  private noted = false;
  private notedError: unknown;
  private handleView?: ObsRequestHandle;
  private identified = false;
  /** The async `identify` in flight. */
  private identifying?: Promise<void>;
  private spanEnded = false;
  private ended = false;

  constructor(
    private readonly observer: HttpObserver<Req, Res>,
    private readonly init: RequestInit<Req>,
  ) {
    this.method = init.method.toUpperCase();
    this.route = init.route;
    this.capture = new RequestCapture(observer);
    const parent = init.parent ?? context.active();
    const name = this.computeName();
    const attributes: Attributes = { [ObsAttributes.OBSERVATION_TYPE]: 'span', [ObsAttributes.TRACE_NAME]: name };
    if (!init.event) {
      attributes['http.request.method'] = this.method;
      attributes['url.path'] = init.path;
    }
    if (this.route) attributes['http.route'] = this.route;
    if (init.attributes) Object.assign(attributes, init.attributes);
    const span = getObsTracer().startSpan(name, { kind: init.event?.kind ?? SpanKind.SERVER, attributes }, parent);
    this.observation = new ObsObservation(span, 'span');
    this.context = layer(parent, REQUEST_KEYS, [span, span.spanContext(), this.late]);
    this.late.pending = this.observer.options.identify !== undefined;
    // Identify runs lazily: at the latest before the first child span starts.
    if (!init.deferIdentify) this.allowIdentify();
  }

  /**
   * `ctx` with this request's obs work added (what is started in it belongs to this request and
   * carries identify's attributes) but its active span kept: for a framework instrumentation that
   * runs the handler in a context of its own (`@fastify/otel`), so the app's own spans keep their
   * parents and obs spans started inside still hang on this root.
   */
  contextOver(ctx: Context): Context {
    return layer(ctx, REQUEST_KEYS_OVER, [this.observation.otelSpan.spanContext(), this.late]);
  }

  /** The trace id, for the response header. */
  get traceId(): string {
    return this.observation.traceId;
  }

  /** What users may hold of the request: its trace id and root observation, not this lifecycle. */
  get handle(): ObsRequestHandle {
    this.handleView ??= Object.freeze({ traceId: this.traceId, observation: this.observation });
    return this.handleView;
  }

  /**
   * The request `identify`, `captureInput` and `name` see from now on, when the framework wraps
   * the one the request started with (Fastify's `FastifyRequest` around Node's).
   */
  setRequest(req: Req): void {
    this.init.req = req;
  }

  /** Sets the parameterised route once the framework matched it (first match wins). */
  setRoute(route: string | undefined): void {
    if (!route || this.route || this.ended || this.init.event) return;
    this.route = route;
    this.observation.otelSpan.setAttribute('http.route', route);
    this.setName(`${this.method} ${route}`);
  }

  /** Names the request as one no route matched: `METHOD <unmatched>`, in every adapter. */
  setUnmatched(): void {
    this.setName(`${this.method} ${UNMATCHED}`);
  }

  /**
   * Names the request without a route (e.g. a mount path answered by middleware). A custom `name`
   * option wins; an identify `traceName` keeps the trace's name.
   */
  setName(name: string): void {
    if (this.customName || this.ended || !name) return;
    const span = this.observation.otelSpan;
    span.updateName(name);
    if (!this.traceNamed) span.setAttribute(ObsAttributes.TRACE_NAME, name);
  }

  /** Lets `identify` run lazily from now on: before the next child span starts, or at finish. */
  allowIdentify(): void {
    // The request itself is the producer: no closure per request.
    if (!this.identified && this.observer.options.identify) this.late.ensure = this;
  }

  /** @internal The late attributes box asks for identify's attributes (a span is starting). */
  produce(): void {
    void this.identify();
  }

  /**
   * Runs `identify(req)` once (later calls are no-ops). Its attributes go on the root now and on
   * every span started afterwards in this request. A Promise result applies when it resolves;
   * the returned Promise lets adapters that can wait (Nest, Next) do so.
   */
  identify(): void | Promise<void> {
    if (this.identified) return;
    this.identified = true;
    this.late.ensure = undefined;
    const fn = this.observer.options.identify;
    if (!fn) return;
    try {
      const result = fn(this.init.req);
      if (isThenable(result)) {
        this.identifying = Promise.resolve(result).then(
          (r) => this.applyIdentity(r),
          (err: unknown) => {
            this.late.pending = false;
            logger.warn(`identify() rejected: ${errorMessage(err)}`);
          },
        );
        return this.identifying;
      }
      this.applyIdentity(result);
    } catch (err) {
      this.late.pending = false;
      logger.warn(`identify() threw: ${errorMessage(err)}`);
    }
  }

  private applyIdentity(result: IdentifyResult | undefined | null): void {
    this.late.pending = false;
    if (!result || typeof result !== 'object' || this.spanEnded) return;
    // Validated, merged over the request's context and put on the root span.
    this.late.set(mergedAttributes(this.context, result));
    if (result.traceName) this.traceNamed = true;
  }

  /** Records what the request asked (default: the body, else the query). Serialised at finish. */
  setInput(body: unknown, query?: unknown): void {
    this.capture.setInput(this.init.req, body, query);
  }

  /** Records what the response returned (JSON value, text or bytes). Serialised at finish. */
  setOutput(body: unknown, res: Res, contentType?: string): void {
    this.capture.setOutput(body, res, contentType);
  }

  /** Adds a chunk of a streamed response (SSE, chunked text); reassembled up to the cap. */
  addOutputChunk(chunk: unknown, res: Res, contentType?: string): void {
    this.capture.addOutputChunk(chunk, res, contentType);
  }

  /** Records an error now (a failed response stream): level ERROR with its message. */
  recordError(error: unknown): void {
    if (this.ended) return;
    this.errored = true;
    recordErrorOnSpan(this.observation.otelSpan, error);
  }

  /**
   * Notes an error the framework caught (error middleware, exception filter, a rejected
   * handler); the first one is the cause. The end decides: answered with a 4xx it is the
   * client's (its message only, level unchanged), otherwise level ERROR; a request cut short by
   * an error is failed, not cancelled.
   */
  noteError(error: unknown): void {
    if (this.ended || this.noted) return;
    this.noted = true;
    this.notedError = error;
  }

  /** Ends the root observation: status code, 5xx as ERROR, aborts marked cancelled. Idempotent. */
  finish(init: FinishInit = {}): void {
    if (this.ended) return;
    this.ended = true;
    const pending = this.identified ? this.identifying : this.identify();
    if (!pending || !this.late.pending) return this.end(init);
    // An async identify not run or not resolved yet: its attributes belong on the root, so the
    // end waits for it, briefly (the response has already gone; only the span waits).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = unref(setTimeout(resolve, IDENTIFY_WAIT_MS));
    });
    const ending = Promise.race([pending, limit]).then(() => {
      clearTimeout(timer);
      this.end(init);
    });
    // A flush must not overtake a root that is about to end.
    holdFlushUntil(ending);
  }

  private end({ statusCode, aborted }: FinishInit): void {
    const span = this.observation.otelSpan;
    try {
      if (statusCode !== undefined) span.setAttribute('http.response.status_code', statusCode);
      this.capture.write(span);
      if (this.noted) {
        if (!aborted && isClientErrorStatus(statusCode))
          span.setAttribute(ObsAttributes.OBSERVATION_STATUS_MESSAGE, errorMessage(this.notedError));
        else {
          this.errored = true;
          recordErrorOnSpan(span, this.notedError);
        }
      } else if (aborted) {
        span.setAttributes({
          [ObsAttributes.OBSERVATION_LEVEL]: 'WARNING',
          [ObsAttributes.OBSERVATION_STATUS_MESSAGE]: 'cancelled: the client closed the connection',
          [`${ObsAttributes.OBSERVATION_METADATA}.cancelled`]: true,
        });
      } else if (!this.errored && statusCode !== undefined && statusCode >= 500) {
        recordErrorOnSpan(span, undefined, `HTTP ${statusCode}`);
      }
    } catch (err) {
      logger.warn(`could not record the request: ${errorMessage(err)}`);
    } finally {
      // Nothing reaches the request's spans after its root ended (applyIdentity ignores it).
      this.late.pending = false;
      span.end();
      this.spanEnded = true;
    }
  }

  private computeName(): string {
    const custom = this.observer.options.name;
    if (custom) {
      try {
        const n = custom(this.init.req);
        if (typeof n === 'string' && n) {
          this.customName = true;
          return n;
        }
      } catch (err) {
        logger.warn(`name() threw: ${errorMessage(err)}`);
      }
    }
    return this.init.event ? this.init.event.name : `${this.method} ${this.route ?? this.init.path}`;
  }
}

/** An HTTP header name (RFC 9110 token), as Node.js's `setHeader` accepts it. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The trace-id response header, checked once here: a name `setHeader` would refuse is reported in
 * one line and no header is sent (the requests are still observed).
 */
function traceIdHeaderOf(option: string | false | undefined): string | undefined {
  // An empty string is what an unset config value usually reads as: off, as before, without a warning.
  if (option === false || option === '') return undefined;
  const name = option ?? DEFAULT_TRACE_ID_HEADER;
  if (typeof name === 'string' && HEADER_NAME.test(name)) return name;
  logger.warn(`traceIdHeader ${JSON.stringify(name)} is not a valid HTTP header name: no trace-id header is sent`);
  return undefined;
}

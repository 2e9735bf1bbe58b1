/**
 * Public types of `@obs/local-server`.
 *
 * @packageDocumentation
 */

/** A decoded OTLP attribute value (`AnyValue`). `bytesValue` becomes a lower-case hex string. */
export type AttrValue = string | number | boolean | AttrValue[] | { [k: string]: AttrValue } | null;

/** One span event, decoded. */
export interface DecodedSpanEvent {
  name: string;
  timeUnixNano: bigint;
  attributes: Record<string, AttrValue>;
}

/** One span link, decoded (ids as lower-case hex). */
export interface DecodedSpanLink {
  traceId: string;
  spanId: string;
}

/** A span as received by the server, decoded from OTLP protobuf or OTLP/JSON. */
export interface DecodedSpan {
  /** 32 lower-case hex characters. */
  traceId: string;
  /** 16 lower-case hex characters. */
  spanId: string;
  /** 16 lower-case hex characters; absent for a root span. */
  parentSpanId?: string;
  name: string;
  /** OTLP `SpanKind` (0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer). */
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  startTime: Date;
  endTime: Date;
  /** `end - start` in milliseconds, with sub-millisecond precision. */
  durationMs: number;
  attributes: Record<string, AttrValue>;
  /** `code`: 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  events: DecodedSpanEvent[];
  links: DecodedSpanLink[];
  /** The instrumentation scope (tracer) that made the span. */
  scope: { name: string; version?: string };
  /** Attributes of the span's resource. */
  resource: Record<string, AttrValue>;
  /** Wire encoding of the export request that carried the span. */
  encoding: 'protobuf' | 'json';
  /** Whether that request was compressed (`Content-Encoding: gzip` or `deflate`). */
  compressed: boolean;
}

/**
 * How a request authenticated:
 * - `secret`: Basic `publicKey:secretKey`;
 * - `public-only`: Basic `publicKey:` (the browser client);
 * - `invalid`: an Authorization header that matches neither;
 * - `none`: no Authorization header.
 */
export type RequestAuth = 'secret' | 'public-only' | 'invalid' | 'none';

/** One HTTP request received by the server, recorded whatever its outcome. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Query parameters (for a repeated name, the last value wins). */
  query: Record<string, string>;
  /** The request target as received (path and query). */
  url: string;
  /** Header names in lower case, as Node.js gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** Headers as received, alternating names and values. */
  rawHeaders: string[];
  /** Body as received (possibly gzip). */
  rawBody: Buffer;
  /** Body after `Content-Encoding` was undone (equal to `rawBody` when it could not be). */
  body: Buffer;
  /** The parsed body when it is JSON. */
  json?: unknown;
  /** Status answered; 0 while the answer is pending (delay fault) and when the socket was reset. */
  status: number;
  /** How the request authenticated. */
  auth: RequestAuth;
  /** `Date.now()` when the body had been read. */
  receivedAt: number;
}

/** A score accepted by `POST /api/public/scores`: the score as sent, plus `receivedAt`. */
export interface ReceivedScore {
  [k: string]: unknown;
  receivedAt: number;
}

/**
 * A fault to inject into the next matching request(s) of the public API. Applied once the
 * request's key was accepted and its body read, before normal handling (a request the key
 * check refuses is answered 401 from its headers, and meets no fault). A faulted request
 * (status or reset) is recorded, but its spans and scores are not stored.
 */
export interface Fault {
  /** Exact path (without query) or a RegExp tested on it. Default: any path. */
  path?: string | RegExp;
  /** HTTP method (`PUT`, `PATCH`, …) the fault applies to. Default: any method. */
  method?: string;
  /** How many matching requests the fault applies to. Default 1. */
  times?: number;
  /** Answer with this status instead of handling the request. */
  status?: number;
  /** Seconds, sent as the `Retry-After` header (with `status`). */
  retryAfter?: number;
  /** Body of the `status` answer: a string is sent as is, anything else as JSON. Default `{ message: 'injected fault' }`. */
  body?: unknown;
  /** Wait this long before answering (then answer normally, or with `status`, or reset). */
  delayMs?: number;
  /** Destroy the socket without answering. */
  reset?: boolean;
  /** Never answer (a black hole): the request is held until faults are cleared, `reset()` or `close()`. */
  hang?: boolean;
  /** Apply to every matching request for this many ms from injection (instead of `times`). */
  durationMs?: number;
}

/** Options of {@link ObsServer.waitFor}. */
export interface WaitOptions {
  /** Default 5000. */
  timeoutMs?: number;
  /** Default 10. */
  intervalMs?: number;
  /** Says what is awaited, in the timeout error message. */
  description?: string;
}

/** Decides whether a score is rejected: return an error message to reject it (207 path). */
// biome-ignore lint/suspicious/noExplicitAny: a rule reads the score as the client sent it (`score.name`); `unknown` would make every rule narrow it first
export type ScoreRule = (score: any, index: number) => string | undefined;

/** Options of {@link startObsServer}. */
export interface ObsServerOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /**
   * Where to listen. Default: this machine's loopback, `127.0.0.1` and `::1` beside it (when the
   * machine has IPv6). Any other address (`0.0.0.0`, a network address) makes the server
   * reachable from other machines: the viewer then needs its token ({@link viewerToken}).
   */
  host?: string;
  /**
   * Host names requests may use besides this machine's loopback names and addresses (the
   * `Host` and `Origin` checks that stop DNS rebinding): exact names, or `.example.test` for a
   * domain and every name under it. Added to `$OBS_LOCAL_ALLOWED_HOSTS` (comma-separated).
   */
  allowedHosts?: string[];
  /**
   * The token the viewer's pages and reads need. Default: a random one when the server listens
   * beyond loopback, none on loopback. When given, it is needed whatever the address.
   */
  viewerToken?: string;
  /**
   * Default `pk-obs-local` on loopback. Beyond loopback (`host`) a random one, and the published
   * default is refused.
   */
  publicKey?: string;
  /**
   * Default `sk-obs-local` on loopback. Beyond loopback (`host`) a random one, and the published
   * default is refused.
   */
  secretKey?: string;
  /** Default `local-project`. */
  projectId?: string;
  /** Default `Local Project`. */
  projectName?: string;
  /** Do not log rejected bodies and internal errors to stderr. */
  quiet?: boolean;
  /**
   * Record every request for tests to read back (`requests`, `scoreRequests`, `media.asks`, …).
   * Default `true`; the CLI turns it off, so a server left running keeps nothing of a request
   * once it has stored what it carried.
   */
  record?: boolean;
  /** Called with the spans of every export request that was stored. */
  onSpans?: (spans: DecodedSpan[]) => void;
  /** Largest request body in bytes, as received and once its content encoding is undone; larger ones get 413. Default 64 MiB. */
  maxBodyBytes?: number;
  /**
   * A directory to keep everything in (spans, scores, datasets, prompts, media), in the SQLite
   * database `obs-local.sqlite` made there, so that a restart keeps it. Default: none, everything
   * lives in memory until the server closes (what tests want). Needs Node.js 22.16+ or 24+
   * (`node:sqlite` with FTS5).
   */
  data?: string;
  /**
   * What a data directory keeps: traces younger than `days`, and a file under `maxSizeMb`
   * (default 1024; 0: no limit), the oldest traces deleted first. `days` applies in memory too.
   */
  retention?: RetentionOptions;
  /**
   * Model prices that add to or override the bundled price table (tried first), for the costs the
   * viewer shows of generations the SDK sent no `cost_details` for.
   */
  prices?: ModelPrice[];
}

/** A step of the media upload protocol, for {@link MediaInspector.injectFault}. */
export type MediaStep = 'ask' | 'upload' | 'report' | 'read' | 'download';

/** An ask for an upload (`POST /api/public/media`) that arrived, whatever its answer. */
export interface MediaAsk {
  request: RecordedRequest;
  /** The ask as sent (`{ traceId, observationId?, contentType, contentLength, sha256Hash, field }`). */
  body: unknown;
  /** The media id answered; `undefined` when the ask was refused or faulted. */
  mediaId: string | undefined;
  /** The upload URL answered: `null` when the server held these bytes already; `undefined` when refused or faulted. */
  uploadUrl: string | null | undefined;
}

/** A `PUT` on an upload URL that arrived, whatever its answer (`request.status`: 200 when the bytes were kept). */
export interface MediaUpload {
  request: RecordedRequest;
  mediaId: string;
  bytes: Buffer;
}

/** A report (`PATCH /api/public/media/{mediaId}`) that arrived, whatever its answer. */
export interface MediaReport {
  request: RecordedRequest;
  mediaId: string;
  /** The report as sent (`{ uploadedAt, uploadHttpStatus, uploadHttpError?, uploadTimeMs? }`). */
  body: unknown;
}

/** A media record as the server holds it. */
export interface HeldMedia {
  mediaId: string;
  contentType: string;
  contentLength: number;
  sha256Hash: string;
  /** When the verified bytes arrived; `null` before. */
  uploadedAt: string | null;
  /** The client's last report, `null` before it sent one. */
  report: { uploadedAt: string; uploadHttpStatus: number; uploadHttpError: string | null; uploadTimeMs: number | null } | null;
  /** Each distinct trace, observation and field that asked for it. */
  links: Array<{ traceId: string; observationId: string | null; field: string }>;
}

/** What arrived of the media upload protocol, for tests to read back, and its faults. */
export interface MediaInspector {
  /** Every ask, in order (faulted and refused ones included). */
  readonly asks: MediaAsk[];
  /** Every `PUT` on an upload URL, in order (faulted and refused ones included). */
  readonly uploads: MediaUpload[];
  /** Every report, in order (faulted and refused ones included). */
  readonly reports: MediaReport[];
  /** How many asks were answered with this id, and how many uploads and reports named it. */
  counts(mediaId: string): { asks: number; uploads: number; reports: number };
  /** The bytes held for a media id (after an upload was verified), else `undefined`. */
  bytes(mediaId: string): Buffer | undefined;
  /** The record held for a media id. */
  get(mediaId: string): HeldMedia | undefined;
  /**
   * Holds media as if it had been asked for and uploaded, for tests of the reads
   * (`GET /api/public/media/{mediaId}`, references in traces); returns its id.
   */
  seed(media: { bytes: Buffer; contentType: string; mediaId?: string }): string;
  /**
   * Makes a step fail through the server's fault queue ({@link ObsServer.injectFault} with that
   * step's method and path): `ask` (POST), `upload` (PUT), `report` (PATCH), `read` (GET of the
   * record), `download` (GET of the bytes); `mediaId` narrows it to one media (not for `ask`).
   */
  injectFault(step: MediaStep, fault: Omit<Fault, 'path' | 'method'> & { mediaId?: string }): void;
}

/** A running local obs server. */
export interface ObsServer {
  /** Base URL for the SDK, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** The trace viewer's address: `${url}/`, with `?token=…` when the viewer needs its token. */
  readonly viewerUrl: string;
  /** The token the viewer needs, or `undefined` when it needs none (listening on loopback only). */
  readonly viewerToken: string | undefined;
  port: number;
  publicKey: string;
  secretKey: string;
  /** The database file everything is kept in, or `undefined` when the server keeps it in memory. */
  readonly dataFile: string | undefined;
  /** The variables that point an app at this server: `{ ...process.env, ...server.env }` for a child process. */
  readonly env: Readonly<{ OBS_BASE_URL: string; OBS_PUBLIC_KEY: string; OBS_SECRET_KEY: string }>;
  projectId: string;
  /** Every request received, in order (including rejected and faulted ones); empty when `record: false`. */
  requests: RecordedRequest[];
  /**
   * Every accepted score (not the rejected ones), each as sent plus `receivedAt`. In memory this
   * is the live array (emptied in place by `reset()`); with a data directory, a copy read when asked.
   */
  scores: ReceivedScore[];
  /** The `POST /api/public/scores` requests whose body was read; empty when `record: false`. */
  scoreRequests: RecordedRequest[];
  /** The media upload protocol: asks, uploads and reports that arrived, the bytes held, faults. */
  readonly media: MediaInspector;
  /** All spans decoded so far, in arrival order. */
  spans(): DecodedSpan[];
  /** The spans of one trace, in arrival order. */
  spansByTrace(traceId: string): DecodedSpan[];
  /** Spans whose name equals the string, or matches the RegExp. */
  spansByName(name: string | RegExp): DecodedSpan[];
  /** Distinct trace ids, in first-seen order. */
  traceIds(): string[];
  /** Polls `probe` until it returns a truthy value (a throw counts as not yet); rejects with a clear message on timeout. */
  waitFor<T>(probe: () => T | undefined | null | false, opts?: WaitOptions): Promise<T>;
  /** Resolves with all spans once at least `count` have arrived. */
  waitForSpans(count: number, opts?: WaitOptions): Promise<DecodedSpan[]>;
  /** Queues a fault; it applies to the next `times` matching requests. */
  injectFault(fault: Fault): void;
  /** Removes every queued fault and releases requests held by `hang` faults. */
  clearFaults(): void;
  /** Sets the largest accepted request body in bytes (413 above). */
  setMaxBodyBytes(bytes: number): void;
  /** Closes the listening port and every connection (clients get ECONNREFUSED); stored data is kept. */
  takeDown(): Promise<void>;
  /** Listens again on the same port after `takeDown()`. */
  bringUp(): Promise<void>;
  /** `takeDown()`, wait `downMs`, `bringUp()`: a server restart. */
  restart(downMs: number): Promise<void>;
  /** Sets the rule that rejects scores (replacing the previous one). */
  rejectScores(predicate: ScoreRule): void;
  /** Removes the score rule. */
  resetScoreRules(): void;
  /** Subscribes to stored spans (one call per export request); returns the unsubscribe function. */
  subscribe(listener: (spans: DecodedSpan[]) => void): () => void;
  /** Forgets requests, spans, scores, faults and the score rule (arrays are emptied in place). */
  reset(): void;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/**
 * One model's prices: USD per million tokens, by usage bucket (wire contract 2.1: `input`,
 * `input_cache_read`, `input_cache_write`, `output`, `output_reasoning`, `input_audio`, …). A
 * bucket without a price of its own costs what `input` costs (an `input_*` bucket) or `output`
 * does (an `output_*` one): reasoning tokens are billed as output, for instance.
 */
export interface ModelPrice {
  /** The model's name, as the viewer shows which prices were used. */
  model: string;
  /**
   * A regular expression (case ignored; a leading `(?i)`, as the platform writes them, is
   * accepted) the model name must match, as sent or in its bare form. Default: the name itself.
   */
  match?: string;
  /** USD per million tokens, by bucket. */
  prices: Record<string, number>;
}

/** What a server keeps (`ObsServerOptions.retention`). */
export interface RetentionOptions {
  /** Delete traces that started more than this many days ago. Default: keep them. */
  days?: number;
  /** Keep a data directory's file under this many MB (MiB), deleting the oldest traces first. Default 1024; 0: no limit. */
  maxSizeMb?: number;
}

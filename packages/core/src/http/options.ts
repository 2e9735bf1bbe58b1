import type { PropagateAttributesParams } from '../tracing/propagation.js';

/** What `identify(req)` returns: trace attributes propagated to every span of the request. */
export type IdentifyResult = PropagateAttributesParams;

/**
 * Options of the request observation, shared by the Express, Nest and Next adapters
 * (`api.md`, shared adapter vocabulary). `Req`/`Res` are the framework's request and response.
 */
// biome-ignore lint/suspicious/noExplicitAny: Req/Res default to any so a callback typed by no framework still reads its fields (req.user); adapters pass their framework's types
export interface ObsHttpOptions<Req = any, Res = any> {
  /** Who and what the request is for; runs after authentication where the framework allows. */
  identify?: (req: Req) => IdentifyResult | undefined | null | Promise<IdentifyResult | undefined | null>;
  /** `false`, or a function choosing what to record as input; default: parsed body, else query. */
  captureInput?: boolean | ((req: Req) => unknown);
  /** `false`, or a function choosing what to record as output; default: what the response sent. */
  captureOutput?: boolean | ((body: unknown, res: Res) => unknown);
  /** Cap per captured value in bytes (UTF-16 units); longer values are cut with a visible marker. Default 64 KiB. */
  maxCaptureBytes?: number;
  /** Keys replaced by `[REDACTED]` at any depth of input and output: a key whose name contains an entry (case-insensitive, `-`/`_` ignored). Default `DEFAULT_REDACT_KEYS`. */
  redactKeys?: string[];
  /** Requests that make no observation: paths, patterns or a predicate. Default: health checks, OPTIONS, static assets. */
  ignore?: (string | RegExp)[] | ((req: Req) => boolean);
  /** Response header carrying the trace id; default `x-obs-trace-id`, `false` (or `''`) to turn off; an invalid name is reported once and turns it off. */
  traceIdHeader?: string | false;
  /** Root observation and trace name; default `METHOD /route/:param`. */
  name?: (req: Req) => string;
}

/**
 * Default `redactKeys`, matched as substrings of key names (case-insensitive, `-`/`_` ignored):
 * `access_token`, `client_secret`, `x-api-key`, `newPassword`, `Set-Cookie` are all caught.
 * `sessionId`/`session_id` are identifiers and stay (obs groups traces by them), and so do
 * token counts (`max_tokens`, `total_tokens`) and `author`.
 */
export const DEFAULT_REDACT_KEYS = [
  'token',
  'secret',
  'passw',
  'pwd',
  'auth',
  'api_key',
  'apikey',
  'cookie',
  'session',
  'private_key',
  'credential',
];

/** Default `maxCaptureBytes`: 64 KiB. */
export const DEFAULT_MAX_CAPTURE_BYTES = 64 * 1024;

/** Default trace id response header. */
export const DEFAULT_TRACE_ID_HEADER = 'x-obs-trace-id';

/** Health and readiness paths ignored by default. */
export const DEFAULT_IGNORED_PATHS: RegExp[] = [
  /^\/(health|healthz|healthcheck|health-check|ready|readyz|readiness|live|livez|liveness|ping|status|metrics)\/?$/i,
  /^\/api\/health\/?$/i,
  /^\/favicon\.ico$/i,
  /^\/robots\.txt$/i,
  /^\/_next\/static\//,
];

/** Static asset extensions ignored by default. */
export const STATIC_ASSET = /\.(js|mjs|cjs|css|map|png|jpe?g|gif|svg|ico|webp|avif|woff2?|ttf|otf|eot|mp4|webm|mp3|wav)$/i;

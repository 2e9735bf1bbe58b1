/** The options of `initObs`, and the modes it reports. */
import type { SpanProcessor } from '../tracing/sdk-types.js';
import type { ObsClientOptions } from '../client/options.js';
import type { ObsSpanProcessorOptions } from '../export/options.js';

/** Options of `initObs`: the span processor's, plus a few of the process's. */
export interface ObsInitOptions extends ObsSpanProcessorOptions {
  /** `service.name` of the resource; default `OTEL_SERVICE_NAME` or `obs-app`. */
  serviceName?: string;
  /** Options of the `ObsClient` (scores, API) beyond the shared keys and base URL. */
  client?: Omit<ObsClientOptions, 'publicKey' | 'secretKey' | 'baseUrl'>;
  /**
   * More span processors for the provider obs creates, run before obs's own so they can adjust
   * spans before export (ignored when obs attaches to an existing provider).
   */
  spanProcessors?: SpanProcessor[];
  /** Flush on `beforeExit`, SIGTERM and SIGINT; default true. */
  flushOnExit?: boolean;
  /** Log a diagnosis of the set-up at start and a line per export (same as `OBS_DEBUG=1`). */
  debug?: boolean;
  /**
   * When obs attaches to the app's tracer provider (Sentry, `@vercel/otel`, your own): whether
   * obs observations (with their inputs, outputs and prompts) also go to the app's other span
   * processors and exporters. Default false: they go to obs only, and the app's own spans still
   * reach both as before.
   */
  shareObservations?: boolean;
  /**
   * Where `OBS_*` and `OTEL_*` settings are read before `process.env`: a Cloudflare Worker's `env`
   * bindings (`initObs({ env })` in its `fetch(request, env, ctx)`; `@obs/hono` passes Hono's
   * `c.env` itself). Non-string bindings are ignored.
   */
  env?: Record<string, unknown>;
}

/** How `initObs` wired obs spans into the process. */
export type ObsTracingMode = 'registered' | 'attached' | 'isolated';

/**
 * `initObs`: one call sets tracing up (tracer provider, async context, `ObsSpanProcessor`, client)
 * and returns the handle that flushes and shuts them down. Idempotent per process: a second call
 * with other options says which are not applied. The first obs span started while nothing is set
 * up at all (no tracer provider registered) calls it with the environment's settings, as the
 * adapters and wrappers do at their first request or call.
 */
import { ObsClient } from '../client/client.js';
import { resolveConnection } from '../config/connection.js';
import { useEnvBindings } from '../config/env.js';
import { ObsSpanProcessor } from '../export/span-processor.js';
import type { DrainTimeoutOptions } from '../delivery/drain.js';
import { logger, setLogLevel } from '../util/logger.js';
import { registerAiSdkTelemetry } from './ai-sdk-telemetry.js';
import type { ObsInitOptions, ObsTracingMode } from './init-options.js';
import { findObsProcessor, registeredProvider, wireTracing } from './provider-choice.js';
import { ignoredOptions } from './repeated-init.js';
import { setObsStarter } from '../tracing/tracer.js';
import { handleDrains } from './lifecycle.js';
import { installShutdownHooks } from './shutdown-hooks.js';
import { reportStartup } from './startup-report.js';

export type { ObsInitOptions, ObsTracingMode } from './init-options.js';

/** What `initObs` returns: the client, the processor, and flush/shutdown of both. */
export interface ObsHandle {
  client: ObsClient;
  spanProcessor: ObsSpanProcessor;
  /**
   * `registered`: obs owns the global provider; `attached`: obs added its processor to the app's;
   * `isolated`: obs spans use a private provider beside the app's. A provider the app registers
   * after obs takes over from `registered` (then `attached` or `isolated`).
   */
  readonly mode: ObsTracingMode;
  /**
   * Resolves when every span and score accepted so far is on the server, or after `timeoutMs`
   * (default `shutdownTimeout`, 15 s): then one line says what is not delivered yet, and it stays
   * buffered and retried.
   */
  flush(options?: DrainTimeoutOptions): Promise<void>;
  /**
   * Delivers what it can within `timeoutMs` (default `shutdownTimeout`) for spans and scores
   * together, drops what is left (one line with the count of each), then stops exporting.
   */
  shutdown(options?: DrainTimeoutOptions): Promise<void>;
}

const HANDLE_SLOT = Symbol.for('obs.handle');
type Slot = { [HANDLE_SLOT]?: ObsHandle };

/** The options of the `initObs` call that made each handle (`auto`: an observation's), for a later call to be compared with. */
const madeWith = new WeakMap<ObsHandle, { options: ObsInitOptions; auto: boolean }>();
let starting = false;

// An observation started before anything set obs up starts it, once per process (never again
// after a handle existed: an observation after shutdown records nothing).
setObsStarter(() => {
  if (getObsHandle()) return;
  logger.debug('an observation started before initObs(): obs starts itself with the settings of the environment');
  starting = true;
  try {
    initObs();
  } finally {
    starting = false;
  }
});

/** The handle of an earlier `initObs`, if any (adapters use it to decide whether to init). */
export function getObsHandle(): ObsHandle | undefined {
  return (globalThis as Slot)[HANDLE_SLOT];
}

/**
 * Sets tracing up in one call: tracer provider, async context, `ObsSpanProcessor`, client.
 * Idempotent: a second call returns the first handle (dev reloads, several adapters). When
 * another tracer provider is registered (Sentry, `@vercel/otel`), before or after obs, obs
 * attaches its processor to it where it can, else runs an isolated provider for obs spans, and
 * logs which it chose.
 * Never throws: without keys or base URL it warns once and exports nothing.
 */
export function initObs(options: ObsInitOptions = {}): ObsHandle {
  if (options.debug) setLogLevel('debug');
  setObsStarter(undefined);
  const existing = getObsHandle();
  if (existing) {
    const made = madeWith.get(existing);
    const ignored = ignoredOptions(made?.options ?? {}, options, made?.auto);
    if (ignored) logger.warn(`initObs: obs is set up already, so this call changes nothing: ${ignored}`);
    else logger.debug('initObs: already initialised, returning the existing handle');
    return existing;
  }
  // Before anything reads a setting: a Worker's bindings count as its environment.
  useEnvBindings(options.env);
  // A provider the user built with ObsSpanProcessor already exports obs spans: reuse it.
  const foreign = registeredProvider();
  const existingProcessor = foreign ? findObsProcessor(foreign) : undefined;
  const spanProcessor = existingProcessor ?? new ObsSpanProcessor(options);
  const client = new ObsClient({
    publicKey: options.publicKey,
    secretKey: options.secretKey,
    baseUrl: options.baseUrl,
    environment: options.environment,
    shutdownTimeout: spanProcessor.shutdownTimeoutMs / 1000, // checked once, by the processor
    outageReportInterval: options.outageReportInterval,
    ...options.client,
  });
  const tracing = wireTracing(spanProcessor, options, existingProcessor !== undefined);
  // AI SDK 7 traces only through a registered integration: obs stands one in if the app has none.
  const unregisterAiSdk = registerAiSdkTelemetry();
  // One deadline for everything the handle delivers: spans, their media and scores.
  const drains = handleDrains(
    [spanProcessor.delivery, spanProcessor.mediaDelivery, client.delivery],
    spanProcessor.shutdownTimeoutMs,
    resolveConnection(options).baseUrl,
  );
  const handle: ObsHandle = {
    client,
    spanProcessor,
    get mode() {
      return tracing.mode;
    },
    async flush(flushOptions) {
      await drains.flush(flushOptions);
    },
    async shutdown(shutdownOptions) {
      await drains.shutdown(
        // The providers one after another: the first stops the span processor, the rest find it stopped.
        () =>
          Promise.all([
            (async () => {
              for (const provider of tracing.providers) await provider.shutdown();
              await spanProcessor.shutdown();
            })(),
            client.shutdown(),
          ]),
        shutdownOptions,
      );
      if (getObsHandle() === handle) delete (globalThis as Slot)[HANDLE_SLOT];
      tracing.unwire();
      unregisterAiSdk();
    },
  };
  (globalThis as Slot)[HANDLE_SLOT] = handle;
  madeWith.set(handle, { options, auto: starting });
  if (options.flushOnExit !== false) {
    // Bounded, so a black-holed server cannot hold the process past a grace period.
    installShutdownHooks(drains, spanProcessor.shutdownTimeoutMs);
  }
  reportStartup({ mode: tracing.mode, exporting: spanProcessor.enabled, foreign, options, batching: spanProcessor.batching });
  return handle;
}

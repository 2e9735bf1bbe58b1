/**
 * Shared set-up of the tracing and export integration tests: a real local obs server, and the
 * tracer provider `initObs` registers (obs's `LightTracerProvider`; `OBS_TEST_PROVIDER=sdk` runs
 * the same tests on OpenTelemetry's `NodeTracerProvider`) with a real `ObsSpanProcessor`
 * exporting to it over HTTP.
 */
import { readFileSync } from 'node:fs';
import type { AttrValue, DecodedSpan, ObsServer, RecordedRequest } from '@obs/local-server';
import type { ObsConnection } from '@obs/local-server/testing';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { defaultResource } from '@opentelemetry/resources';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterEach, expect } from 'vitest';
import { ObsSpanProcessor, type ObsSpanProcessorOptions } from '../../src/index.js';
import { TRACES_PATH } from '../../src/kit.js';
import { LightTracerProvider } from '../../src/tracing/provider/light-provider.js';
import { captureLogs, type LogLine, restoreLogger, TRACING_KEYS } from '../support/server.js';

export type { DecodedSpan, LogLine, ObsServer, RecordedRequest };
export { captureLogs, restoreLogger, TRACING_KEYS };

/** Version of `@obs/core` as published (what `x-obs-sdk-version` must say). */
export const PACKAGE_VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

export interface Tracing {
  provider: LightTracerProvider | NodeTracerProvider;
  processor: ObsSpanProcessor;
  /** `processor.forceFlush()`: resolves when the server has answered everything. */
  flush(): Promise<void>;
  /** Shuts the provider down and unregisters it globally. */
  close(): Promise<void>;
  /** The same as `close()`: what `setupObsServer` calls after the tests. */
  shutdown(): Promise<void>;
}

let contextReady = false;

/** Async context (AsyncLocalStorage) and W3C propagation, once per test file. */
export function ensureContext(): void {
  if (contextReady) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  contextReady = true;
}

/**
 * Registers (globally) a fresh provider whose only processor is a real `ObsSpanProcessor`
 * exporting to `server`. Short flush interval and millisecond backoff keep tests fast.
 */
export function installTracing(server: ObsServer, options: ObsSpanProcessorOptions = {}): Tracing {
  trace.disable();
  ensureContext();
  const processor = new ObsSpanProcessor({
    baseUrl: server.url,
    publicKey: server.publicKey,
    secretKey: server.secretKey,
    flushInterval: 0.02,
    backoffMs: 5,
    ...options,
  });
  const provider =
    process.env.OBS_TEST_PROVIDER === 'sdk'
      ? new NodeTracerProvider({ spanProcessors: [processor] })
      : new LightTracerProvider({ resource: defaultResource(), spanProcessors: [processor] });
  trace.setGlobalTracerProvider(provider);
  return {
    provider,
    processor,
    flush: () => processor.forceFlush(),
    async close() {
      await provider.shutdown();
      trace.disable();
    },
    shutdown() {
      return this.close();
    },
  };
}

/**
 * The tracing tests' `init` for `setupObsServer`: one registered provider for the whole file (see
 * `installTracing`), closed after all: `await setupObsServer({ ...TRACING_KEYS, init: tracingInit() }).ready`.
 */
export function tracingInit(options: ObsSpanProcessorOptions = {}): (connection: ObsConnection, server: ObsServer) => Tracing {
  return (_connection, server) => installTracing(server, options);
}

/**
 * The export tests' per-test provider on the file's server: `install(options)` registers one
 * for the current test; after each test it is closed, `cleanup` runs and the logger goes back to
 * console (unless `restoreLogs` is false).
 */
export function perTestTracing(
  server: ObsServer,
  cleanup?: () => void,
  { restoreLogs = true } = {},
): (options?: ObsSpanProcessorOptions) => Tracing {
  let tracing: Tracing | undefined;
  afterEach(async () => {
    await tracing?.close();
    tracing = undefined;
    cleanup?.();
    if (restoreLogs) restoreLogger();
  });
  return (options) => {
    tracing = installTracing(server, options);
    return tracing;
  };
}

export function warnings(lines: LogLine[]): string[] {
  return lines.filter((l) => l.level === 'warn').map((l) => l.message);
}

/** The one span named `name` the server decoded (fails when there are none or several). */
export function only(server: ObsServer, name: string): DecodedSpan {
  const found = server.spansByName(name);
  expect(
    found.map((s) => s.name),
    `spans named ${name}`,
  ).toEqual([name]);
  return found[0]!;
}

/** Attribute of a decoded span. */
export function attr(span: DecodedSpan, key: string): AttrValue | undefined {
  return span.attributes[key];
}

/** The requests made to the OTLP traces endpoint. */
export function traceRequests(server: ObsServer): RecordedRequest[] {
  return server.requests.filter((r) => r.path === TRACES_PATH);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

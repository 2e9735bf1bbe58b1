import { flushSoon } from '@obs/core/http';
import { trace, type Span } from '@opentelemetry/api';
import { getObsHandle, ObsAttributes, startObservation, updateActiveObservation } from '@obs/core';
import { recordErrorOnSpan, SDK_TRACER_NAME } from '@obs/core/kit';
import { isErrorRecorded } from './errors.js';
import { guard } from './guard.js';
import type { RequestErrorContext, RequestErrorInfo } from './options.js';
import { pathOf, routeFromRoutePath } from './route-pattern.js';

/**
 * Next.js's `onRequestError` instrumentation hook: records an uncaught route handler, server component,
 * server action or proxy error on the right observation, then flushes. An error a `withObs` root already
 * recorded is not recorded twice; an error raised while an obs observation is active goes on that
 * observation; otherwise a new error observation named `METHOD /route/[param]` is made, in the
 * request's trace. Never throws.
 *
 * @example
 * ```ts
 * // instrumentation.ts
 * export { onRequestError } from '@obs/next';
 * ```
 */
export async function onRequestError(
  error: unknown,
  request: Readonly<RequestErrorInfo>,
  errorContext: Readonly<RequestErrorContext>,
): Promise<void> {
  await guard.settle(
    async () => {
      const handle = getObsHandle();
      if (!handle) return;
      if (!isErrorRecorded(error)) record(error, request, errorContext);
      await flushSoon(handle);
    },
    undefined,
    'the error is not recorded',
  );
}

function record(error: unknown, request: Readonly<RequestErrorInfo>, ctx: Readonly<RequestErrorContext>): void {
  const metadata = errorMetadata(error, ctx);
  const active = trace.getActiveSpan();
  if (active && isLiveObservation(active)) {
    recordErrorOnSpan(active, error);
    updateActiveObservation({ metadata });
    return;
  }
  const path = pathOf(request.path ?? '/');
  const method = (request.method ?? 'GET').toUpperCase();
  const route = routeFromRoutePath(ctx.routePath) ?? path;
  const name = `${method} ${route}`;
  const obs = startObservation(name, { metadata });
  obs.otelSpan.setAttributes({
    [ObsAttributes.TRACE_NAME]: name,
    'http.request.method': method,
    'http.route': route,
    'url.path': path,
  });
  obs.recordError(error);
  obs.end();
}

/** An obs observation (our tracer) that has not ended yet. */
function isLiveObservation(span: Span): boolean {
  const scope = (span as { instrumentationScope?: { name?: string } }).instrumentationScope?.name;
  return scope === SDK_TRACER_NAME && span.isRecording();
}

function errorMetadata(error: unknown, ctx: Readonly<RequestErrorContext>): Record<string, unknown> {
  const digest = (error as { digest?: unknown } | null)?.digest;
  return {
    next: {
      routerKind: ctx.routerKind,
      routePath: ctx.routePath,
      routeType: ctx.routeType,
      renderSource: ctx.renderSource,
      revalidateReason: ctx.revalidateReason,
      ...(typeof digest === 'string' ? { digest } : {}),
    },
  };
}

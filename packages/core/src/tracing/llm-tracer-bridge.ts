/**
 * Isolated mode (the registered provider takes no span processors, like Sentry 10's own) would
 * leave LLM libraries' spans started inside obs work (the AI SDK, OpenInference, ...) with that
 * provider only, outside the obs tree. The bridge routes them to obs's provider: for LLM scopes,
 * the registered provider's `getTracer` returns a tracer that starts each span on obs's provider
 * when the span's context is inside obs work, and on its own otherwise. Every other tracer starts
 * its spans in `appContext(ctx)`: with the app's own nearest span as the parent in place of an obs
 * observation the provider never sees, so the app keeps its tree as without obs.
 */
import { context, type Context, type Span, type SpanOptions, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { isLlmScope } from './scopes.js';
import { IN_OBS_TRACE_KEY } from './context-keys.js';

type GetTracer = TracerProvider['getTracer'];

/** Installs the bridge on `foreign`; returns the function that removes it. */
export function bridgeLlmTracers(
  foreign: TracerProvider,
  obsProvider: TracerProvider,
  appContext: (ctx: Context) => Context = (ctx) => ctx,
): () => void {
  const target = foreign as TracerProvider & { getTracer: GetTracer };
  const original: GetTracer = target.getTracer;
  const bridged: GetTracer = function (this: unknown, name, version, options) {
    const own = original.call(foreign, name, version, options);
    return isLlmScope(name) ? forkingTracer(own, obsProvider.getTracer(name, version, options)) : appTracer(own, appContext);
  };
  target.getTracer = bridged;
  return () => {
    if (target.getTracer === bridged) target.getTracer = original;
  };
}

const inObsWork = (ctx: Context) => Boolean(ctx.getValue(IN_OBS_TRACE_KEY));

function forkingTracer(own: Tracer, obs: Tracer): Tracer {
  const pick = (ctx: Context) => (inObsWork(ctx) ? obs : own);
  return {
    startSpan(name: string, options?: SpanOptions, ctx?: Context): Span {
      return pick(ctx ?? context.active()).startSpan(name, options, ctx);
    },
    startActiveSpan(...args: unknown[]): unknown {
      // (name, fn) | (name, options, fn) | (name, options, context, fn)
      const ctx = args.length >= 4 ? (args[2] as Context) : context.active();
      return (pick(ctx).startActiveSpan as (...a: unknown[]) => unknown)(...args);
    },
  } as Tracer;
}

/** A tracer of the app's provider whose spans start in the app's view of the context. */
function appTracer(own: Tracer, appContext: (ctx: Context) => Context): Tracer {
  return {
    startSpan(name: string, options?: SpanOptions, ctx?: Context): Span {
      return own.startSpan(name, options, appContext(ctx ?? context.active()));
    },
    startActiveSpan(...args: unknown[]): unknown {
      // (name, fn) | (name, options, fn) | (name, options, context, fn)
      const fn = args[args.length - 1];
      const options = args.length >= 3 ? args[1] : undefined;
      const ctx = args.length >= 4 ? (args[2] as Context) : context.active();
      return (own.startActiveSpan as (...a: unknown[]) => unknown)(args[0], options ?? {}, appContext(ctx), fn);
    },
  } as Tracer;
}

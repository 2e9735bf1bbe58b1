import {
  context as api,
  INVALID_SPAN_CONTEXT,
  isSpanContextValid,
  SpanKind,
  trace,
  TraceFlags,
  type Context,
  type Span,
  type SpanContext,
  type SpanOptions,
  type Tracer,
} from '@opentelemetry/api';
import { isTracingSuppressed } from '../suppress.js';
import { LightSpan, type LightTracerState } from './light-span.js';
import { newSpanId, newTraceId } from './span-ids.js';

/**
 * The tracer of obs's own provider. It samples as the SDK does with the provider's sampler (by
 * default parent-based, always on: a root is sampled, a child follows its parent's sampled flag)
 * and records every sampled span.
 */
export class LightTracer implements Tracer {
  constructor(private readonly state: LightTracerState) {}

  startSpan(name: string, options?: SpanOptions, ctx: Context = api.active()): Span {
    if (options?.root) ctx = trace.deleteSpan(ctx);
    if (isTracingSuppressed(ctx)) return trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
    const parentSpan = trace.getSpan(ctx);
    const parent = parentSpan ? parentOf(parentSpan) : undefined;
    const spanId = newSpanId();
    const traceId = parent ? parent.traceId : newTraceId();
    const sampler = this.state.sampler;
    const sampled = parent && sampler.parentBased ? (parent.traceFlags & TraceFlags.SAMPLED) !== 0 : sampler.root(traceId);
    if (!sampled) {
      // Not sampled: propagate the context, record nothing.
      return trace.wrapSpanContext({ traceId, spanId, traceFlags: TraceFlags.NONE, traceState: parent?.traceState });
    }
    const spanContext: SpanContext = { traceId, spanId, traceFlags: TraceFlags.SAMPLED, traceState: parent?.traceState };
    const span = new LightSpan(this.state, spanContext, name, options?.kind ?? SpanKind.INTERNAL, parent, options?.startTime);
    if (options?.attributes) span.setAttributes(options.attributes);
    if (options?.links) span.addLinks(options.links);
    this.state.hooks.onStart(span, ctx);
    return span;
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, options: SpanOptions, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, options: SpanOptions, ctx: Context, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, ...rest: unknown[]): ReturnType<F> | undefined {
    if (rest.length === 0) return undefined;
    const fn = rest[rest.length - 1] as F;
    const options = rest.length >= 2 ? (rest[0] as SpanOptions | undefined) : undefined;
    const parentContext = rest.length >= 3 ? ((rest[1] as Context | undefined) ?? api.active()) : api.active();
    const span = this.startSpan(name, options, parentContext);
    return api.with(trace.setSpan(parentContext, span), fn as (s: Span) => ReturnType<F>, undefined, span);
  }
}

/** The parent's span context if it is valid; light spans' own contexts are valid by construction. */
function parentOf(span: Span): SpanContext | undefined {
  const sc = span.spanContext();
  return span instanceof LightSpan || (sc && isSpanContextValid(sc)) ? sc : undefined;
}

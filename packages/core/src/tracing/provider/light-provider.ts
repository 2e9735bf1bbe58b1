import { context, propagation, trace, type Context, type Tracer, type TracerProvider } from '@opentelemetry/api';
import type { ReadableSpan, SdkSpan as Span, SpanProcessor } from '../sdk-types.js';
import { ObsContextManager } from './context-manager.js';
import type { LightSpan, LightTracerState, SpanHooks } from './light-span.js';
import { LightTracer } from './light-tracer.js';
import { w3cPropagator } from './propagators.js';
import { samplerFromEnv, type LightSampler } from './sampler.js';
import { spanLimitsFromEnv, type LightSpanLimits } from './span-limits.js';

/** Options of `LightTracerProvider`. */
export interface LightTracerProviderOptions {
  resource: ReadableSpan['resource'];
  spanProcessors: SpanProcessor[];
  /** How spans are sampled; default: as `OTEL_TRACES_SAMPLER` in `process.env` says. */
  lightSampler?: LightSampler;
}

/**
 * obs's own tracer provider, used when obs owns tracing (nothing else registered one) and for
 * obs's private provider next to another. Spans are `LightSpan`s; processors are the SDK's
 * `SpanProcessor`s, run in order, so `spanProcessors` passed to `initObs` keep working. Its
 * processor list sits where the SDK's does (`_activeSpanProcessor._spanProcessors`), so tools
 * that look for a processor on the registered provider (and `initObs` itself) find it.
 */
export class LightTracerProvider implements TracerProvider {
  readonly resource: ReadableSpan['resource'];
  readonly _activeSpanProcessor: { _spanProcessors: SpanProcessor[] };
  private readonly tracers = new Map<string, Tracer>();
  private readonly limits: LightSpanLimits = spanLimitsFromEnv();
  private readonly sampler: LightSampler;
  private readonly hooks: SpanHooks;

  constructor(options: LightTracerProviderOptions) {
    this.resource = options.resource;
    this.sampler = options.lightSampler ?? samplerFromEnv();
    const processors = [...options.spanProcessors];
    this._activeSpanProcessor = { _spanProcessors: processors };
    // One processor (obs's alone, the usual case) is called directly; more run in order.
    this.hooks = {
      onStart(span: LightSpan, ctx: Context) {
        if (processors.length === 1) return processors[0]!.onStart(span as unknown as Span, ctx);
        for (const p of processors) p.onStart(span as unknown as Span, ctx);
      },
      // Also for processors added to the list later (attached ones), so it is always called.
      onEnding(span: LightSpan) {
        for (const p of processors) (p as { onEnding?: (s: Span) => void }).onEnding?.(span as unknown as Span);
      },
      onEnd(span: LightSpan) {
        if (processors.length === 1) return processors[0]!.onEnd(span);
        for (const p of processors) p.onEnd(span);
      },
    };
  }

  getTracer(name: string, version?: string, options?: { schemaUrl?: string }): Tracer {
    const key = `${name}@${version ?? ''}:${options?.schemaUrl ?? ''}`;
    let tracer = this.tracers.get(key);
    if (!tracer) {
      const state: LightTracerState = {
        resource: this.resource,
        instrumentationScope: { name, version, schemaUrl: options?.schemaUrl },
        limits: this.limits,
        sampler: this.sampler,
        hooks: this.hooks,
      };
      tracer = new LightTracer(state);
      this.tracers.set(key, tracer);
    }
    return tracer;
  }

  /** Registers as the global provider, with async context and W3C propagation, as `NodeTracerProvider.register()` does. */
  register(): void {
    trace.setGlobalTracerProvider(this);
    context.setGlobalContextManager(new ObsContextManager().enable());
    propagation.setGlobalPropagator(w3cPropagator());
  }

  async forceFlush(): Promise<void> {
    await Promise.all(this._activeSpanProcessor._spanProcessors.map((p) => p.forceFlush()));
  }

  async shutdown(): Promise<void> {
    await Promise.all(this._activeSpanProcessor._spanProcessors.map((p) => p.shutdown()));
  }
}

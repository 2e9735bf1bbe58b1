/**
 * The tracer provider obs registers globally when it is first: its tracers start spans on obs's
 * own provider until the app registers a provider of its own (OpenTelemetry's SDK, Sentry,
 * `@vercel/otel`, initialised after obs), then on the app's. A tracer handed out before (the
 * API's proxy tracers keep the first tracer they resolve) follows on its next span, so an
 * instrumentation that traced once before the app's provider arrived is not left behind.
 */
import type { Context, Span, SpanOptions, Tracer, TracerProvider } from '@opentelemetry/api';

type TracerOptions = { schemaUrl?: string };

export class YieldingTracerProvider implements TracerProvider {
  private target: TracerProvider;
  private readonly tracers = new Map<string, Tracer>();

  constructor(readonly own: TracerProvider) {
    this.target = own;
  }

  /** Where spans go now: obs's provider, or the app's once it took over. */
  get current(): TracerProvider {
    return this.target;
  }

  /** Whether the app's provider took over. */
  get handedOver(): boolean {
    return this.target !== this.own;
  }

  /** From now on every tracer of this provider starts its spans on `provider`. */
  handOver(provider: TracerProvider): void {
    this.target = provider;
  }

  /** Span processors of the provider spans go to, where tools look for them (as on the SDK's). */
  get _activeSpanProcessor(): unknown {
    return (this.target as { _activeSpanProcessor?: unknown })._activeSpanProcessor;
  }

  getTracer(name: string, version?: string, options?: TracerOptions): Tracer {
    const key = `${name}@${version ?? ''}:${options?.schemaUrl ?? ''}`;
    let tracer = this.tracers.get(key);
    if (!tracer) this.tracers.set(key, (tracer = new FollowingTracer(this, name, version, options)));
    return tracer;
  }

  async forceFlush(): Promise<void> {
    await (this.target as { forceFlush?: () => Promise<void> }).forceFlush?.();
  }
}

/** A tracer that asks its provider where spans go, and re-resolves only when that changed. */
class FollowingTracer implements Tracer {
  private resolvedFor?: TracerProvider;
  private tracer?: Tracer;

  constructor(
    private readonly provider: YieldingTracerProvider,
    private readonly name: string,
    private readonly version: string | undefined,
    private readonly options: TracerOptions | undefined,
  ) {}

  private resolve(): Tracer {
    const target = this.provider.current;
    if (target !== this.resolvedFor || !this.tracer) {
      this.resolvedFor = target;
      this.tracer = target.getTracer(this.name, this.version, this.options);
    }
    return this.tracer;
  }

  startSpan(name: string, options?: SpanOptions, context?: Context): Span {
    return this.resolve().startSpan(name, options, context);
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, options: SpanOptions, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, options: SpanOptions, context: Context, fn: F): ReturnType<F>;
  startActiveSpan(...args: unknown[]): unknown {
    const tracer = this.resolve();
    return (tracer.startActiveSpan as (...a: unknown[]) => unknown).apply(tracer, args);
  }
}

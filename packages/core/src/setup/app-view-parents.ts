/**
 * When obs is attached to the app's provider, obs observations run on obs's private provider, so
 * the app's backend never receives them. A span of the app's tracers started inside one (an AI SDK
 * span, an express handler) would point at a parent the backend never gets: an orphan in its
 * traces, dropped by tree-building processors such as Sentry's. This processor, first on the app's
 * provider, re-points such a span at start to the nearest ancestor the app's provider has, where
 * it would hang without obs; obs still exports it under the observation (the original parent is
 * kept in a slot for obs's export).
 */
import { trace, type Context, type SpanContext } from '@opentelemetry/api';
import type { ReadableSpan, SdkSpan, SpanProcessor, SpanResource } from '../tracing/sdk-types.js';
import { OBS_PARENT } from '../tracing/span-slots.js';

type Reparentable = object & { parentSpanContext?: SpanContext; parentSpanId?: string; [OBS_PARENT]?: SpanContext | null };

export class AppViewParents implements SpanProcessor {
  /** For each observation: the nearest ancestor the app's provider has (null: none). */
  private readonly appParent = new WeakMap<object, SpanContext | null>();

  /** `hidden`: the resource of the private provider's spans, which the app never receives. */
  constructor(private readonly hidden: SpanResource) {}

  private isHidden(span: unknown): boolean {
    return (span as Partial<ReadableSpan> | undefined)?.resource === this.hidden;
  }

  onStart(span: SdkSpan, parentContext: Context): void {
    const parent = trace.getSpan(parentContext);
    if (this.isHidden(span)) {
      const outside = parent && this.isHidden(parent) ? (this.appParent.get(parent) ?? null) : (parent?.spanContext() ?? null);
      this.appParent.set(span, outside);
      return;
    }
    if (!parent || !this.isHidden(parent)) return;
    const target = this.appParent.get(parent) ?? null;
    const s = span as Reparentable;
    if ('parentSpanContext' in s) {
      s[OBS_PARENT] = s.parentSpanContext ?? null;
      s.parentSpanContext = target ?? undefined;
    } else if ('parentSpanId' in s) {
      // SDK 1.x spans name their parent by id only.
      s[OBS_PARENT] = parent.spanContext();
      s.parentSpanId = target?.spanId;
    }
  }

  onEnd(): void {}

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

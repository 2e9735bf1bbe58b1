/**
 * Beside the app's provider, obs observations run on a provider of obs's own, so the app's backend
 * never receives them. A span of the app's tracers started inside one (an express handler, a
 * span of the app's own) would point at a parent the backend never gets: an orphan in its traces,
 * dropped by tree-building processors such as Sentry's. The app view keeps the app's tree as it
 * is without obs: each such span hangs, for the app, on the nearest ancestor the app has; obs
 * still exports it under the observation (the original parent is kept in a slot for obs's export).
 *
 * `recorder` runs on obs's provider and remembers, for every span there, that nearest ancestor.
 * On a provider that takes span processors, `pointer` (first in its list) re-points a span at
 * start; on one that does not (Sentry's own), the tracer bridge starts the span in `appContext`.
 */
import { trace, type Context, type Span, type SpanContext } from '@opentelemetry/api';
import type { SdkSpan, SpanProcessor } from '../tracing/sdk-types.js';
import { OBS_PARENT } from '../tracing/span-slots.js';

type Reparentable = object & { parentSpanContext?: SpanContext; parentSpanId?: string; [OBS_PARENT]?: SpanContext | null };

/** What both processors do besides `onStart`: nothing (they only read and re-point spans). */
const PASSIVE = { onEnd: () => {}, forceFlush: () => Promise.resolve(), shutdown: () => Promise.resolve() };

export class AppView {
  /** For each span on obs's provider: the nearest ancestor the app has (null: none). */
  private readonly ancestor = new WeakMap<object, Span | null>();

  readonly recorder: SpanProcessor = {
    onStart: (span: SdkSpan, parentContext: Context) => {
      const parent = trace.getSpan(parentContext);
      this.ancestor.set(span, parent && this.ancestor.has(parent) ? (this.ancestor.get(parent) ?? null) : (parent ?? null));
    },
    ...PASSIVE,
  };

  readonly pointer: SpanProcessor = {
    onStart: (span: SdkSpan, parentContext: Context) => {
      const parent = trace.getSpan(parentContext);
      if (!parent || !this.ancestor.has(parent)) return;
      const target = this.ancestor.get(parent)?.spanContext();
      const s = span as Reparentable;
      if ('parentSpanContext' in s) {
        s[OBS_PARENT] = s.parentSpanContext ?? null;
        s.parentSpanContext = target;
      } else if ('parentSpanId' in s) {
        // SDK 1.x spans name their parent by id only.
        s[OBS_PARENT] = parent.spanContext();
        s.parentSpanId = target?.spanId;
      }
    },
    ...PASSIVE,
  };

  /** `ctx` with the app's nearest span active in place of a span on obs's provider. */
  appContext(ctx: Context): Context {
    const parent = trace.getSpan(ctx);
    if (!parent || !this.ancestor.has(parent)) return ctx;
    const ancestor = this.ancestor.get(parent);
    return ancestor ? trace.setSpan(ctx, ancestor) : trace.deleteSpan(ctx);
  }
}

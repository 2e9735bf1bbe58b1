import { trace, type Context, type SpanContext } from '@opentelemetry/api';
import { guard } from './guard.js';
import { isNextSpan } from './next-spans.js';
import type { SpanProcessorLike } from './span-processor-like.js';

/** The parts of an SDK span the re-parenting touches (SDK 2.x `parentSpanContext`, 1.x `parentSpanId`). */
type MutableSpan = { parentSpanContext?: SpanContext; parentSpanId?: string };

/**
 * When Next.js spans are not exported, an observation started under one (a route handler's root, an
 * `observe` in a server action) would point at a parent the obs server never receives. This processor
 * re-points it, at start, to the nearest ancestor that is not a Next.js span: the caller's remote span
 * when a `traceparent` came in, else none (the observation becomes the root of the trace). The trace
 * id is kept, so every observation of one request still shares one trace.
 */
export class NextSpanReparenter implements SpanProcessorLike {
  /** For each live Next.js span: its nearest non-Next ancestor (undefined when there is none). */
  private readonly exportedParent = new WeakMap<object, SpanContext | undefined>();

  onStart(span: object, parentContext: Context): void {
    guard.run(() => reparent(this.exportedParent, span, parentContext), undefined, 'a span keeps its Next.js parent');
  }

  onEnd(): void {}

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** Records a Next.js span's nearest exported ancestor, or re-points an observation started under one to it. */
function reparent(exportedParent: WeakMap<object, SpanContext | undefined>, span: object, parentContext: Context): void {
  const parent = trace.getSpan(parentContext);
  if (!parent) return;
  const parentIsNext = isNextSpan(parent);
  if (isNextSpan(span)) {
    exportedParent.set(span, parentIsNext ? exportedParent.get(parent) : parent.spanContext());
    return;
  }
  if (parentIsNext) setParent(span as MutableSpan, exportedParent.get(parent));
}

function setParent(span: MutableSpan, parent: SpanContext | undefined): void {
  if ('parentSpanContext' in span) span.parentSpanContext = parent;
  else if ('parentSpanId' in span) span.parentSpanId = parent?.spanId;
}

import { trace, type Context } from '@opentelemetry/api';
import { keepAlive } from './flush.js';
import { isNextSpan } from './next-spans.js';
import type { SpanProcessorLike } from './span-processor-like.js';

/** Past this many open traces (work outside any request), the bookkeeping starts over. */
const MAX_TRACKED_TRACES = 10_000;

/**
 * Flushes when Next.js finishes a request whose trace holds observations that no `withObs` flushed:
 * server components, server actions, unwrapped route handlers. It watches the outermost Next.js span of
 * each request (`BaseServer.handleRequest`) and, when it ends, flushes under the platform's `waitUntil`
 * where there is one, so a serverless function does not freeze with those spans still queued. An
 * observation of an answered request that ends later (work in `after()`, a stream that outlives the
 * response) is flushed the same way when it ends: the platform's `waitUntil` of that request (its
 * `after()` callbacks run in it) then keeps the function alive for it too.
 */
export class RequestEndFlusher implements SpanProcessorLike {
  private readonly outermost = new WeakSet<object>();
  private readonly tracesWithObservations = new Set<string>();
  /** Traces whose request Next.js has finished (oldest first, bounded). */
  private readonly answered = new Set<string>();

  constructor(private readonly flush: () => Promise<void>) {}

  onStart(span: object, parentContext: Context): void {
    if (isNextSpan(span)) {
      if (!isNextSpan(trace.getSpan(parentContext))) this.outermost.add(span);
      return;
    }
    if (this.tracesWithObservations.size >= MAX_TRACKED_TRACES) this.tracesWithObservations.clear();
    const traceId = traceIdOf(span);
    if (traceId) this.tracesWithObservations.add(traceId);
  }

  onEnd(span: object): void {
    const traceId = traceIdOf(span);
    if (!traceId) return;
    if (this.outermost.has(span)) {
      this.answered.add(traceId);
      if (this.answered.size > MAX_TRACKED_TRACES) this.answered.delete(this.answered.values().next().value!);
      if (this.tracesWithObservations.delete(traceId)) keepAlive(this.flush());
      return;
    }
    // Ended after its request was answered: nothing else will flush it before the function may freeze.
    if (this.answered.has(traceId) && !isNextSpan(span)) keepAlive(this.flush());
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

function traceIdOf(span: object): string | undefined {
  return (span as { spanContext?: () => { traceId: string } }).spanContext?.().traceId;
}

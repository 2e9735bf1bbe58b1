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
 * where there is one, so a serverless function does not freeze with those spans still queued.
 */
export class RequestEndFlusher implements SpanProcessorLike {
  private readonly outermost = new WeakSet<object>();
  private readonly tracesWithObservations = new Set<string>();

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
    if (!this.outermost.has(span)) return;
    const traceId = traceIdOf(span);
    if (traceId && this.tracesWithObservations.delete(traceId)) keepAlive(this.flush());
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

/**
 * The trace summaries kept in memory: folded from the span store's new spans when read, so
 * ingestion pays nothing for them and the list stays fast with tens of thousands of traces.
 */
import { foldSpan, matchesTraceFilter, type TraceFold } from '../../model/trace-summary.js';
import type { TraceFilter, TraceStore, TraceSummary } from '../types.js';
import type { MemorySpanStore } from './spans.js';

/** Trace summaries over a {@link MemorySpanStore}. */
export class MemoryTraceStore implements TraceStore {
  private readonly folds = new Map<string, TraceFold>();
  private indexed = 0;
  private epoch = -1;

  constructor(private readonly spans: MemorySpanStore) {}

  list(filter: TraceFilter, limit = Number.POSITIVE_INFINITY): { data: TraceSummary[]; total: number } {
    this.index();
    const rows: TraceSummary[] = [];
    for (const { summary } of this.folds.values()) if (matchesTraceFilter(summary, filter)) rows.push(summary);
    rows.sort((a, b) => b.start - a.start);
    return { data: rows.slice(0, limit), total: rows.length };
  }

  get(traceId: string): TraceSummary | undefined {
    this.index();
    return this.folds.get(traceId.toLowerCase())?.summary;
  }

  /** Folds the spans stored since the last read; starts over when spans were deleted. */
  private index(): void {
    let { spans, size, epoch } = this.spans.since(this.indexed);
    if (epoch !== this.epoch) {
      this.folds.clear();
      this.epoch = epoch;
      ({ spans, size } = this.spans.since(0));
    }
    for (const span of spans) this.folds.set(span.traceId, foldSpan(this.folds.get(span.traceId), span));
    this.indexed = size;
  }
}

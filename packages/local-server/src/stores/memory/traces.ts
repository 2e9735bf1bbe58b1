/**
 * The trace summaries kept in memory: folded from the span store's new spans when read, so
 * ingestion pays nothing for them and the list stays fast with tens of thousands of traces.
 * Search reads each trace's words, gathered from the first search on.
 */
import type { Pricing } from '../../model/cost.js';
import { queryWords, searchTextOf, words } from '../../model/search-text.js';
import { foldSpan, matchesTraceFilter, type TraceFold } from '../../model/trace-summary.js';
import type { TraceSummary } from '../../model/trace-summary.js';
import type { TraceFilter, TraceStore } from '../types.js';
import type { MemorySpanStore } from './spans.js';

/** Trace summaries over a {@link MemorySpanStore}. */
export class MemoryTraceStore implements TraceStore {
  private readonly folds = new Map<string, TraceFold>();
  private indexed = 0;
  private epoch = -1;
  /** Trace id -> ` word word …` of its spans; `undefined` until the first search. */
  private texts: Map<string, string> | undefined;

  constructor(
    private readonly spans: MemorySpanStore,
    private readonly pricing: Pricing,
  ) {}

  list(filter: TraceFilter, limit = Number.POSITIVE_INFINITY): { data: TraceSummary[]; total: number } {
    const wanted = queryWords(filter.search);
    if (wanted.length > 0 && !this.texts) {
      this.texts = new Map();
      this.epoch = -1; // search just began: fold every span again, gathering its words
    }
    this.index();
    const found = (id: string) => {
      const text = this.texts?.get(id) ?? '';
      return wanted.every((w) => text.includes(` ${w}`));
    };
    const rows: TraceSummary[] = [];
    for (const { summary } of this.folds.values()) {
      if (matchesTraceFilter(summary, filter) && (wanted.length === 0 || found(summary.id))) rows.push(summary);
    }
    rows.sort((a, b) => b.start - a.start);
    return { data: rows.slice(0, limit), total: rows.length };
  }

  get(traceId: string): TraceSummary | undefined {
    this.index();
    return this.folds.get(traceId.toLowerCase())?.summary;
  }

  oldest(limit: number, before = Number.POSITIVE_INFINITY): string[] {
    this.index();
    const rows: TraceSummary[] = [];
    for (const { summary } of this.folds.values()) if (summary.start < before) rows.push(summary);
    return rows
      .sort((a, b) => a.start - b.start)
      .slice(0, limit)
      .map((s) => s.id);
  }

  /** Folds the spans stored since the last read; starts over when spans were deleted. */
  private index(): void {
    let { spans, size, epoch } = this.spans.since(this.indexed);
    if (epoch !== this.epoch) {
      this.folds.clear();
      this.texts &&= new Map();
      this.epoch = epoch;
      ({ spans, size } = this.spans.since(0));
    }
    for (const span of spans) {
      this.folds.set(span.traceId, foldSpan(this.folds.get(span.traceId), span, this.pricing));
      if (this.texts) this.texts.set(span.traceId, `${this.texts.get(span.traceId) ?? ''} ${words(searchTextOf(span)).join(' ')}`);
    }
    this.indexed = size;
  }
}

/**
 * Keeps received spans in memory, in arrival order, indexed by trace.
 */
import type { DecodedSpan } from '../../types.js';
import type { SpanStore } from '../types.js';

/** In-memory store of decoded spans. */
export class MemorySpanStore implements SpanStore {
  private readonly all: DecodedSpan[] = [];
  private readonly byTrace = new Map<string, DecodedSpan[]>();
  /** Counts deletions and clears: a reader that indexes by position starts over when it changes. */
  private epoch = 0;

  /** Appends spans (in the order given). */
  add(spans: readonly DecodedSpan[]): void {
    for (const span of spans) {
      this.all.push(span);
      let list = this.byTrace.get(span.traceId);
      if (!list) {
        list = [];
        this.byTrace.set(span.traceId, list);
      }
      list.push(span);
    }
  }

  /** Number of spans stored. */
  get size(): number {
    return this.all.length;
  }

  /** All spans, in arrival order (a copy). */
  spans(): DecodedSpan[] {
    return this.all.slice();
  }

  /**
   * Spans stored from index `from` on (no copy: read, do not keep), how many are stored, and the
   * epoch the positions belong to (spans were deleted when it changed).
   */
  since(from: number): { spans: readonly DecodedSpan[]; size: number; epoch: number } {
    return { spans: from === 0 ? this.all : this.all.slice(from), size: this.all.length, epoch: this.epoch };
  }

  /** The spans of one trace, in arrival order. */
  spansByTrace(traceId: string): DecodedSpan[] {
    return this.byTrace.get(traceId.toLowerCase())?.slice() ?? [];
  }

  /** Spans whose name equals the string, or matches the RegExp. */
  spansByName(name: string | RegExp): DecodedSpan[] {
    if (typeof name === 'string') return this.all.filter((s) => s.name === name);
    return this.all.filter((s) => {
      name.lastIndex = 0; // a global/sticky RegExp keeps state between tests
      return name.test(s.name);
    });
  }

  /** Distinct trace ids, in first-seen order. */
  traceIds(): string[] {
    return [...this.byTrace.keys()];
  }

  spansByPrompt(name: string): DecodedSpan[] {
    return this.all.filter((s) => s.attributes['obs.observation.prompt.name'] === name);
  }

  experimentSpans(): DecodedSpan[] {
    return this.all.filter((s) => s.attributes['obs.experiment.id'] !== undefined);
  }

  /** Forgets the spans of these traces; returns how many spans went. */
  deleteTraces(traceIds: readonly string[]): number {
    const gone = new Set(traceIds.map((id) => id.toLowerCase()));
    const before = this.all.length;
    for (const id of gone) this.byTrace.delete(id);
    const kept = this.all.filter((s) => !gone.has(s.traceId));
    if (kept.length !== before) this.epoch++;
    this.all.length = 0;
    this.all.push(...kept);
    return before - kept.length;
  }

  /** Forgets every span. */
  clear(): void {
    this.epoch++;
    this.all.length = 0;
    this.byTrace.clear();
  }
}

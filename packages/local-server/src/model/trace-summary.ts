/**
 * A trace's summary (the viewer's list row) folded span by span, so any store can keep it up to
 * date as spans arrive instead of reading the whole trace again. Its cost is each observation's
 * as `pricing` reads it (the SDK's `cost_details`, else its usage priced), so it is the prices in
 * effect when the span arrived.
 */
import type { AttrValue, DecodedSpan } from '../types.js';
import type { Pricing } from './cost.js';

/** One row of the viewer's trace list, kept up to date as spans arrive. */
export interface TraceSummary {
  id: string;
  name: string;
  /** The trace's root: its span without a parent, else (a trace continued from elsewhere) its earliest span. */
  rootSpanId: string;
  userId: string | null;
  sessionId: string | null;
  tags: string[];
  /** Epoch milliseconds, to the microsecond (a fraction). */
  start: number;
  end: number;
  observations: number;
  /** Whether any observation of the trace is at level ERROR (or has an error status). */
  error: boolean;
  totalTokens: number;
  totalCost: number;
  /** The `obs.experiment.id` one of its spans carries, if any. */
  experiment: string | null;
}

/** A summary and what choosing its root needs to remember. */
export interface TraceFold {
  summary: TraceSummary;
  /** Whether the current root has a parent (a trace continued from elsewhere): a true root replaces it. */
  rootOrphan: boolean;
  /** The current root's start, epoch ms. */
  rootStart: number;
}

/** Folds one span into its trace's summary (`undefined` for the trace's first span). */
export function foldSpan(fold: TraceFold | undefined, span: DecodedSpan, pricing: Pricing): TraceFold {
  const a = span.attributes;
  const start = epochMs(span.startTimeUnixNano);
  const end = epochMs(span.endTimeUnixNano);
  const orphan = span.parentSpanId !== undefined;
  if (!fold) {
    fold = {
      summary: {
        id: span.traceId,
        name: span.name,
        rootSpanId: span.spanId,
        userId: null,
        sessionId: null,
        tags: [],
        start,
        end,
        observations: 0,
        error: false,
        totalTokens: 0,
        totalCost: 0,
        experiment: null,
      },
      rootOrphan: orphan,
      rootStart: start,
    };
    fold.summary.name = traceName(span);
  } else if (fold.rootOrphan && (!orphan || start < fold.rootStart)) {
    fold.summary.rootSpanId = span.spanId;
    fold.summary.name = traceName(span);
    fold.rootOrphan = orphan;
    fold.rootStart = start;
  }
  const s = fold.summary;
  s.observations++;
  s.start = Math.min(s.start, start);
  s.end = Math.max(s.end, end);
  if (typeof a['user.id'] === 'string') s.userId = a['user.id'];
  if (typeof a['session.id'] === 'string') s.sessionId = a['session.id'];
  const tags = a['obs.trace.tags'];
  if (Array.isArray(tags)) for (const t of tags) if (typeof t === 'string' && !s.tags.includes(t)) s.tags.push(t);
  if (a['obs.observation.level'] === 'ERROR' || span.status.code === 2) s.error = true;
  const usage = parseObject(a['obs.observation.usage_details']);
  if (usage) s.totalTokens += typeof usage['total'] === 'number' ? usage['total'] : sumNumbers(usage, ['input', 'output']);
  const cost = pricing.costOf(a);
  if (cost) s.totalCost += cost.total;
  if (a['obs.experiment.id'] !== undefined) s.experiment = String(a['obs.experiment.id']);
  return fold;
}

/** Whether a summary passes every condition of a list's filter. */
export function matchesTraceFilter(
  s: TraceSummary,
  f: { name?: string; userId?: string; sessionId?: string; tag?: string; errorsOnly?: boolean; experimentsOnly?: boolean },
): boolean {
  if (f.name && !s.name.toLowerCase().includes(f.name.toLowerCase())) return false;
  if (f.userId && s.userId !== f.userId) return false;
  if (f.sessionId && s.sessionId !== f.sessionId) return false;
  if (f.tag && !s.tags.includes(f.tag)) return false;
  if (f.errorsOnly && !s.error) return false;
  if (f.experimentsOnly && s.experiment === null) return false;
  return true;
}

/** Epoch nanoseconds as milliseconds to the microsecond (a double holds epoch microseconds exactly). */
export function epochMs(ns: bigint): number {
  return Number(ns / 1000n) / 1000;
}

function traceName(span: DecodedSpan): string {
  const name = span.attributes['obs.trace.name'];
  return typeof name === 'string' ? name : span.name;
}

function parseObject(v: AttrValue | undefined): Record<string, unknown> | undefined {
  if (typeof v !== 'string') return undefined;
  try {
    const o = JSON.parse(v) as unknown;
    return typeof o === 'object' && o !== null && !Array.isArray(o) ? (o as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function sumNumbers(o: Record<string, unknown>, keys: string[]): number {
  let n = 0;
  for (const k of keys) if (typeof o[k] === 'number') n += o[k] as number;
  return n;
}

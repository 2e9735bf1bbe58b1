/**
 * What the viewer's pages read: the trace list with its filters, one trace (observations as the
 * v2 read gives them, and scores), and a session's traces with each root's input and output.
 */
import type { ObservationCost, Pricing } from '../model/cost.js';
import { spanToObservation, type ObservationV2 } from '../model/observations.js';
import { epochMs } from '../model/trace-summary.js';
import type { TraceSummary } from '../model/trace-summary.js';
import type { ObsStores } from '../stores/types.js';
import type { AttrValue, ReceivedScore } from '../types.js';

/** Most rows one list request returns. */
const MAX_LIST = 500;

/** Trace summaries, newest first, filtered by name, user, session, tag, errors only and searched text (`q`). */
export function traceList(stores: ObsStores, q: URLSearchParams): { data: TraceSummary[]; total: number } {
  const errors = q.get('errors') === '1' || q.get('errors') === 'true';
  const filter = {
    name: q.get('name') ?? undefined,
    userId: q.get('user') ?? undefined,
    sessionId: q.get('session') ?? undefined,
    tag: q.get('tag') ?? undefined,
    errorsOnly: errors,
    search: q.get('q') ?? undefined,
  };
  return stores.traces.list(filter, Math.min(Number(q.get('limit')) || 200, MAX_LIST));
}

/**
 * An observation as the viewer reads it: the v2 read's, with its start and duration to the
 * microsecond, and its cost (the SDK's `cost_details`, else its usage priced; `null` when neither).
 */
export type ViewerObservation = ObservationV2 & { startMs: number; durationMs: number; cost: ObservationCost | null };

/** One trace: its summary, observations (as the v2 read gives them, in order of start, each with its cost) and scores. */
export function traceDetail(
  stores: ObsStores,
  traceId: string,
  pricing: Pricing,
): { summary: TraceSummary | null; observations: ViewerObservation[]; scores: ReceivedScore[] } {
  const observations = stores.spans
    .spansByTrace(traceId)
    .map((span) => ({
      ...spanToObservation(span),
      startMs: epochMs(span.startTimeUnixNano),
      durationMs: span.durationMs,
      cost: pricing.costOf(span.attributes) ?? null,
    }))
    .sort((a, b) => a.startMs - b.startMs);
  return { summary: stores.traces.get(traceId) ?? null, observations, scores: stores.scores.find({ traceId: [traceId] }) };
}

/** A session's traces in order, each with its root's input and output (a conversation). */
export function sessionView(
  stores: ObsStores,
  sessionId: string,
): { sessionId: string; traces: Array<TraceSummary & { input: string | null; output: string | null }> } {
  const traces = stores.traces
    .list({ sessionId })
    .data.sort((a, b) => a.start - b.start)
    .map((s) => {
      const root = stores.spans.spansByTrace(s.id).find((sp) => sp.spanId === s.rootSpanId);
      return {
        ...s,
        input: root ? text(root.attributes['obs.observation.input']) : null,
        output: root ? text(root.attributes['obs.observation.output']) : null,
      };
    });
  return { sessionId, traces };
}

/** An attribute as the viewer shows it: strings as they are, anything else as JSON. */
export function text(v: AttrValue | undefined): string | null {
  return v === undefined || v === null ? null : typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * Human-readable trace trees, for the CLI and the demo.
 */
import type { AttrValue, DecodedSpan, ObsServer } from './types.js';

const PREVIEW_CHARS = 60;

/**
 * Formats spans as one tree per trace: parent/child indentation, the observation type
 * (`obs.observation.type`), duration, and short input/output previews.
 *
 * ```text
 * trace 4bf92f3577b34da6a3ce929d0e0e4736 "chat" (3 spans, 120.4ms)
 * └─ [span] POST /chat 120.4ms in: {"q":"hi"} out: {"a":"hello"}
 *    ├─ [generation] llm 80.1ms model: gpt-4o in: [{"role":"user"… out: "hello"
 *    └─ [tool] search 10.0ms ERROR: not found
 * ```
 */
export function formatTrace(spans: DecodedSpan[]): string {
  const traces = new Map<string, DecodedSpan[]>();
  for (const span of spans) {
    let list = traces.get(span.traceId);
    if (!list) traces.set(span.traceId, (list = []));
    list.push(span);
  }
  return [...traces.entries()].map(([traceId, list]) => formatOneTrace(traceId, list)).join('\n');
}

function formatOneTrace(traceId: string, spans: DecodedSpan[]): string {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const children = new Map<string, DecodedSpan[]>();
  const roots: DecodedSpan[] = [];
  for (const span of spans) {
    if (span.parentSpanId && byId.has(span.parentSpanId) && span.parentSpanId !== span.spanId) {
      let list = children.get(span.parentSpanId);
      if (!list) children.set(span.parentSpanId, (list = []));
      list.push(span);
    } else roots.push(span);
  }
  const order = (list: DecodedSpan[]) =>
    list.slice().sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : a.startTimeUnixNano > b.startTimeUnixNano ? 1 : 0));

  // Nanosecond times are bigints, which Math.min/max do not take.
  let start = spans[0]!.startTimeUnixNano;
  let end = spans[0]!.endTimeUnixNano;
  for (const s of spans) {
    if (s.startTimeUnixNano < start) start = s.startTimeUnixNano;
    if (s.endTimeUnixNano > end) end = s.endTimeUnixNano;
  }
  const traceName = spans.map((s) => s.attributes['obs.trace.name']).find((n) => typeof n === 'string');
  const lines = [
    `trace ${traceId}${traceName ? ` ${JSON.stringify(traceName)}` : ''} (${spans.length} span${spans.length === 1 ? '' : 's'}, ${ms(Number(end - start) / 1e6)})`,
  ];

  const seen = new Set<DecodedSpan>();
  const visit = (span: DecodedSpan, prefix: string, last: boolean) => {
    if (seen.has(span)) return;
    seen.add(span);
    lines.push(`${prefix}${last ? '└─ ' : '├─ '}${describe(span)}`);
    const kids = order(children.get(span.spanId) ?? []);
    for (const [i, kid] of kids.entries()) visit(kid, prefix + (last ? '   ' : '│  '), i === kids.length - 1);
  };
  const sortedRoots = order(roots);
  for (const [i, root] of sortedRoots.entries()) visit(root, '', i === sortedRoots.length - 1);
  // Spans caught in a parent cycle are not reachable from a root: list them anyway.
  const rest = order(spans.filter((s) => !seen.has(s)));
  for (const [i, s] of rest.entries()) visit(s, '', i === rest.length - 1);
  return lines.join('\n');
}

function describe(span: DecodedSpan): string {
  const a = span.attributes;
  const type = typeof a['obs.observation.type'] === 'string' ? a['obs.observation.type'] : 'otel';
  const parts = [`[${type}]`, span.name || '(unnamed)', ms(span.durationMs)];
  const model = a['obs.observation.model.name'];
  if (typeof model === 'string') parts.push(`model: ${model}`);
  const input = preview(a['obs.observation.input']);
  if (input) parts.push(`in: ${input}`);
  const output = preview(a['obs.observation.output']);
  if (output) parts.push(`out: ${output}`);
  if (span.status.code === 2 || a['obs.observation.level'] === 'ERROR') {
    const message = a['obs.observation.status_message'] ?? span.status.message;
    parts.push(`ERROR${typeof message === 'string' && message ? `: ${truncate(message)}` : ''}`);
  }
  return parts.join(' ');
}

function preview(v: AttrValue | undefined): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  return truncate(typeof v === 'string' ? v : JSON.stringify(v));
}

function truncate(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat;
}

function ms(value: number): string {
  if (value >= 1000) return `${(value / 1000).toFixed(2)}s`;
  return `${value.toFixed(1)}ms`;
}

/** Options of {@link printTracesAsTheyArrive}. */
export interface PrintTracesOptions {
  /** How long a trace must stay quiet before it is printed. Default 300. */
  quietMs?: number;
}

/**
 * Prints each trace with {@link formatTrace} once no span of it has arrived for ~300ms.
 * A trace that gets more spans later is printed again, whole.
 *
 * @returns a function that stops printing (pending traces are dropped)
 */
export function printTracesAsTheyArrive(
  server: Pick<ObsServer, 'subscribe'>,
  write: (text: string) => void = console.log,
  options: PrintTracesOptions = {},
): () => void {
  const quietMs = options.quietMs ?? 300;
  const traces = new Map<string, DecodedSpan[]>();
  const timers = new Map<string, NodeJS.Timeout>();
  const unsubscribe = server.subscribe((spans) => {
    for (const span of spans) {
      let list = traces.get(span.traceId);
      if (!list) traces.set(span.traceId, (list = []));
      list.push(span);
      clearTimeout(timers.get(span.traceId));
      const timer = setTimeout(() => {
        timers.delete(span.traceId);
        write(formatTrace(traces.get(span.traceId) ?? []));
      }, quietMs);
      timers.set(span.traceId, timer);
    }
  });
  return () => {
    unsubscribe();
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
    traces.clear();
  };
}

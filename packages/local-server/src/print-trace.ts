/**
 * Human-readable trace trees, for the CLI and the demo. Everything a trace carries (names, model,
 * previews, status messages) is printed with its control characters escaped: a span cannot clear
 * the terminal, recolour it or forge a line of the server's.
 */
import { escapeControls } from './text/terminal.js';
import type { AttrValue, DecodedSpan, ObsServer } from './types.js';

const PREVIEW_CHARS = 60;

/** Options of {@link formatTrace}. */
export interface FormatTraceOptions {
  /** Most spans printed per trace; the rest are counted in one last line. Default: all. */
  maxSpans?: number;
}

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
export function formatTrace(spans: DecodedSpan[], options: FormatTraceOptions = {}): string {
  const traces = new Map<string, DecodedSpan[]>();
  for (const span of spans) {
    let list = traces.get(span.traceId);
    if (!list) traces.set(span.traceId, (list = []));
    list.push(span);
  }
  return [...traces.entries()].map(([traceId, list]) => formatOneTrace(traceId, list, options.maxSpans ?? Infinity)).join('\n');
}

function formatOneTrace(traceId: string, spans: DecodedSpan[], maxSpans: number): string {
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
  // Named as the viewer names it: its trace name, else its root's name (a job, a queue consumer).
  const traceName =
    spans.map((s) => s.attributes['obs.trace.name']).find((n) => typeof n === 'string' && n !== '') ?? order(roots)[0]?.name ?? '';
  const lines = [
    `trace ${escapeControls(traceId)}${traceName ? ` "${escapeControls(String(traceName)).replace(/"/g, '\\"')}"` : ''} (${spans.length} span${spans.length === 1 ? '' : 's'}, ${ms(Number(end - start) / 1e6)})`,
  ];

  const seen = new Set<DecodedSpan>();
  const visit = (span: DecodedSpan, prefix: string, last: boolean) => {
    if (seen.has(span)) return;
    seen.add(span);
    if (seen.size > maxSpans) return;
    lines.push(`${prefix}${last ? '└─ ' : '├─ '}${describe(span)}`);
    const kids = order(children.get(span.spanId) ?? []);
    for (const [i, kid] of kids.entries()) visit(kid, prefix + (last ? '   ' : '│  '), i === kids.length - 1);
  };
  const sortedRoots = order(roots);
  for (const [i, root] of sortedRoots.entries()) visit(root, '', i === sortedRoots.length - 1);
  // Spans caught in a parent cycle are not reachable from a root: list them anyway.
  const rest = order(spans.filter((s) => !seen.has(s)));
  for (const [i, s] of rest.entries()) visit(s, '', i === rest.length - 1);
  if (spans.length > maxSpans)
    lines.push(`… ${spans.length - maxSpans} more span${spans.length - maxSpans === 1 ? '' : 's'} (open the trace in the viewer)`);
  return lines.join('\n');
}

function describe(span: DecodedSpan): string {
  const a = span.attributes;
  const type = typeof a['obs.observation.type'] === 'string' ? a['obs.observation.type'] : 'otel';
  const parts = [`[${escapeControls(String(type))}]`, escapeControls(span.name) || '(unnamed)', ms(span.durationMs)];
  const model = a['obs.observation.model.name'];
  if (typeof model === 'string') parts.push(`model: ${truncate(model)}`);
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

/** One line of at most 60 characters, whitespace runs as one space, control characters escaped. */
function truncate(text: string): string {
  const flat = escapeControls(text.replace(/[ \t\n\r\f\v]+/g, ' ').trim());
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
  /** Most spans printed per trace (the rest counted in one line). Default 200. */
  maxSpans?: number;
  /** Most traces printed a second; the others are counted in one line a second. Default 50. */
  perSecond?: number;
}

/** How many printed traces are remembered, to print one whole again when it gets more spans. */
const REMEMBERED_TRACES = 10_000;

/**
 * Prints each trace with {@link formatTrace} once no span of it has arrived for ~300ms. A trace
 * that gets more spans after it was printed is printed again, whole: read back from the server
 * (when it has `spansByTrace`), so the spans are not kept here once printed and a server left
 * running holds no copy of what it printed. More than 50 traces a second are not printed but
 * counted, in one line a second (a load test would otherwise flood the terminal).
 *
 * @returns a function that stops printing (pending traces are dropped)
 */
export function printTracesAsTheyArrive(
  server: Pick<ObsServer, 'subscribe'> & Partial<Pick<ObsServer, 'spansByTrace'>>,
  write: (text: string) => void = console.log,
  options: PrintTracesOptions = {},
): () => void {
  const quietMs = options.quietMs ?? 300;
  const maxSpans = options.maxSpans ?? 200;
  const perSecond = options.perSecond ?? 50;
  const pending = new Map<string, DecodedSpan[]>();
  const timers = new Map<string, NodeJS.Timeout>();
  /** Trace ids printed lately, oldest first. */
  const printed = new Map<string, true>();
  let second = 0;
  let inSecond = 0;
  let skipped = 0;
  let skippedTimer: NodeJS.Timeout | undefined;
  const flushSkipped = () => {
    skippedTimer = undefined;
    if (skipped === 0) return;
    write(
      `… ${skipped.toLocaleString('en-US')} more trace${skipped === 1 ? '' : 's'} arrived (more than ${perSecond} a second are not printed; the viewer has them all)`,
    );
    skipped = 0;
  };
  const print = (traceId: string) => {
    timers.delete(traceId);
    const arrived = pending.get(traceId) ?? [];
    pending.delete(traceId);
    const now = Math.floor(Date.now() / 1000);
    if (now !== second) [second, inSecond] = [now, 0];
    if (++inSecond > perSecond) {
      skipped++;
      skippedTimer ??= setTimeout(flushSkipped, 1000);
      return;
    }
    let spans = arrived;
    if (printed.has(traceId) && server.spansByTrace) {
      try {
        spans = server.spansByTrace(traceId);
      } catch {
        // The store could not answer (its disk): print what arrived.
      }
    }
    printed.delete(traceId);
    printed.set(traceId, true);
    if (printed.size > REMEMBERED_TRACES) printed.delete(printed.keys().next().value!);
    write(formatTrace(spans.length > 0 ? spans : arrived, { maxSpans }));
  };
  const unsubscribe = server.subscribe((spans) => {
    for (const span of spans) {
      let list = pending.get(span.traceId);
      if (!list) pending.set(span.traceId, (list = []));
      list.push(span);
      clearTimeout(timers.get(span.traceId));
      timers.set(
        span.traceId,
        setTimeout(() => print(span.traceId), quietMs),
      );
    }
  });
  return () => {
    unsubscribe();
    for (const timer of timers.values()) clearTimeout(timer);
    clearTimeout(skippedTimer);
    timers.clear();
    pending.clear();
    printed.clear();
  };
}

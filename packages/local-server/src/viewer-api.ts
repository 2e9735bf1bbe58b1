/**
 * The trace viewer's side of the server: the page and its static files, the JSON reads it makes
 * (trace list with filters, one trace, one session, experiments) and a server-sent event stream
 * that tells open pages when traces change. Trace summaries are indexed incrementally, so the
 * list stays fast with tens of thousands of stored traces.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { spanToObservation } from './observations.js';
import type { AttrValue, DecodedSpan, ReceivedScore } from './types.js';

/** One row of the trace list. */
export interface TraceSummary {
  id: string;
  name: string;
  userId: string | null;
  sessionId: string | null;
  tags: string[];
  /** Epoch milliseconds. */
  start: number;
  end: number;
  observations: number;
  /** Whether any observation of the trace is at level ERROR (or has an error status). */
  error: boolean;
  totalTokens: number;
  totalCost: number;
  /** Whether one of its spans carries `obs.experiment.*` attributes. */
  experiment: string | null;
}

/** What the viewer reads from the server it is part of. */
export interface ViewerSource {
  /** Spans stored from index `from` on, and how many are stored in all. */
  spansSince(from: number): { spans: readonly DecodedSpan[]; size: number };
  spansByTrace(traceId: string): DecodedSpan[];
  scores(): readonly ReceivedScore[];
}

const STATIC_FILES: Record<string, string> = {
  '/': 'index.html',
  '/viewer/app.js': 'app.js',
  '/viewer/app.css': 'app.css',
};
const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};
/** Where the page's files are: `viewer/` beside `dist/` in the package. */
const STATIC_DIR = new URL('../viewer/', import.meta.url);

/** Most rows one list request returns. */
const MAX_LIST = 500;

export class Viewer {
  private readonly summaries = new Map<string, TraceSummary>();
  /** Each trace's root: its span without a parent, else (a trace continued from elsewhere) its earliest span. */
  private readonly roots = new Map<string, { spanId: string; orphan: boolean; start: number }>();
  private indexed = 0;
  private readonly clients = new Set<ServerResponse>();
  private readonly files = new Map<string, Buffer>();

  constructor(private readonly source: ViewerSource) {}

  /** Whether `path` is the viewer's (served without auth: a local development tool). */
  handles(method: string, path: string): boolean {
    return method === 'GET' && (path in STATIC_FILES || path.startsWith('/viewer-api/'));
  }

  /** Tells open pages that these spans arrived. */
  notify(spans: readonly DecodedSpan[]): void {
    if (this.clients.size === 0) return;
    this.index();
    const ids = [...new Set(spans.map((s) => s.traceId))];
    const rows = ids.map((id) => this.summaries.get(id)).filter((s): s is TraceSummary => s !== undefined);
    const data = `event: traces\ndata: ${JSON.stringify(rows)}\n\n`;
    for (const res of this.clients) res.write(data);
  }

  async serve(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname;
    const file = STATIC_FILES[path];
    if (file) return this.sendFile(res, file);
    const q = url.searchParams;
    if (path === '/viewer-api/events') return this.openEvents(req, res);
    if (path === '/viewer-api/traces') return send(res, 200, this.list(q));
    const traceId = /^\/viewer-api\/traces\/([0-9a-f]{32})$/.exec(path)?.[1];
    if (traceId) return send(res, 200, this.trace(traceId));
    const sessionId = /^\/viewer-api\/sessions\/(.+)$/.exec(path)?.[1];
    if (sessionId) return send(res, 200, this.session(decodeURIComponent(sessionId)));
    if (path === '/viewer-api/experiments') return send(res, 200, this.experiments());
    send(res, 404, { message: `no viewer route ${path}` });
  }

  /** Trace summaries, newest first, filtered by name, user, session, tag and errors only. */
  list(q: URLSearchParams): { data: TraceSummary[]; total: number } {
    this.index();
    const name = q.get('name')?.toLowerCase();
    const user = q.get('user');
    const session = q.get('session');
    const tag = q.get('tag');
    const errors = q.get('errors') === '1' || q.get('errors') === 'true';
    const limit = Math.min(Number(q.get('limit')) || 200, MAX_LIST);
    const rows: TraceSummary[] = [];
    let total = 0;
    for (const s of this.summaries.values()) {
      if (name && !s.name.toLowerCase().includes(name)) continue;
      if (user && s.userId !== user) continue;
      if (session && s.sessionId !== session) continue;
      if (tag && !s.tags.includes(tag)) continue;
      if (errors && !s.error) continue;
      total++;
      rows.push(s);
    }
    rows.sort((a, b) => b.start - a.start);
    return { data: rows.slice(0, limit), total };
  }

  /** One trace: its summary, observations (as the v2 read gives them) and scores. */
  trace(traceId: string): { summary: TraceSummary | null; observations: ReturnType<typeof spanToObservation>[]; scores: ReceivedScore[] } {
    this.index();
    const observations = this.source
      .spansByTrace(traceId)
      .map(spanToObservation)
      .sort((a, b) => a.startTime.localeCompare(b.startTime));
    const scores = this.source.scores().filter((s) => s['traceId'] === traceId);
    return { summary: this.summaries.get(traceId) ?? null, observations, scores };
  }

  /** A session's traces in order, each with its root's input and output (a conversation). */
  session(sessionId: string): { sessionId: string; traces: Array<TraceSummary & { input: string | null; output: string | null }> } {
    this.index();
    const traces = [...this.summaries.values()]
      .filter((s) => s.sessionId === sessionId)
      .sort((a, b) => a.start - b.start)
      .map((s) => {
        const root = this.source.spansByTrace(s.id).find((sp) => sp.spanId === this.roots.get(s.id)?.spanId);
        return {
          ...s,
          input: root ? str(root.attributes['obs.observation.input']) : null,
          output: root ? str(root.attributes['obs.observation.output']) : null,
        };
      });
    return { sessionId, traces };
  }

  /**
   * Experiment runs read from the spans' `obs.experiment.*` attributes: per run, its items
   * (input, expected and actual output, trace) and per-evaluator averages of their scores.
   */
  experiments(): { data: ExperimentRun[] } {
    this.index();
    const runs = new Map<string, ExperimentRun>();
    const scores = this.source.scores();
    for (const s of this.summaries.values()) {
      if (!s.experiment) continue;
      const root = this.source.spansByTrace(s.id).find((sp) => sp.attributes['obs.experiment.id'] !== undefined);
      if (!root) continue;
      const a = root.attributes;
      const id = String(a['obs.experiment.id']);
      let run = runs.get(id);
      if (!run) {
        run = {
          id,
          name: str(a['obs.experiment.name']) ?? id,
          description: str(a['obs.experiment.description']),
          datasetId: str(a['obs.experiment.dataset.id']),
          items: [],
          averages: {},
        };
        runs.set(id, run);
      }
      const itemScores = scores.filter((sc) => sc['traceId'] === s.id);
      run.items.push({
        traceId: s.id,
        itemId: str(a['obs.experiment.item.id']),
        input: str(a['obs.observation.input']),
        expectedOutput: str(a['obs.experiment.item.expected_output']),
        output: str(a['obs.observation.output']),
        error: s.error,
        scores: Object.fromEntries(itemScores.map((sc) => [String(sc['name']), sc['value'] as number | string])),
      });
    }
    for (const run of runs.values()) {
      const sums: Record<string, { total: number; n: number }> = {};
      for (const item of run.items) {
        for (const [name, value] of Object.entries(item.scores)) {
          if (typeof value !== 'number') continue;
          const agg = (sums[name] ??= { total: 0, n: 0 });
          agg.total += value;
          agg.n++;
        }
      }
      for (const [name, { total, n }] of Object.entries(sums)) run.averages[name] = total / n;
    }
    return { data: [...runs.values()] };
  }

  /** Forgets the index (the server was reset). */
  reset(): void {
    this.summaries.clear();
    this.roots.clear();
    this.indexed = 0;
  }

  /** Folds the spans stored since the last call into the summaries. */
  private index(): void {
    const { spans, size } = this.source.spansSince(this.indexed);
    if (size < this.indexed) {
      this.reset();
      return this.index();
    }
    for (const span of spans) this.fold(span);
    this.indexed = size;
  }

  private fold(span: DecodedSpan): void {
    const a = span.attributes;
    const start = Number(span.startTimeUnixNano / 1_000_000n);
    const end = Number(span.endTimeUnixNano / 1_000_000n);
    let s = this.summaries.get(span.traceId);
    if (!s) {
      s = {
        id: span.traceId,
        name: span.name,
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
      };
      this.summaries.set(span.traceId, s);
    }
    s.observations++;
    s.start = Math.min(s.start, start);
    s.end = Math.max(s.end, end);
    const root = this.roots.get(span.traceId);
    const orphan = span.parentSpanId !== undefined;
    if (!root || (root.orphan && (!orphan || start < root.start))) {
      this.roots.set(span.traceId, { spanId: span.spanId, orphan, start });
      s.name = typeof a['obs.trace.name'] === 'string' ? a['obs.trace.name'] : span.name;
    }
    if (typeof a['user.id'] === 'string') s.userId = a['user.id'];
    if (typeof a['session.id'] === 'string') s.sessionId = a['session.id'];
    const tags = a['obs.trace.tags'];
    if (Array.isArray(tags)) for (const t of tags) if (typeof t === 'string' && !s.tags.includes(t)) s.tags.push(t);
    if (a['obs.observation.level'] === 'ERROR' || span.status.code === 2) s.error = true;
    const usage = parseObject(a['obs.observation.usage_details']);
    if (usage) s.totalTokens += typeof usage['total'] === 'number' ? usage['total'] : sumNumbers(usage, ['input', 'output']);
    const cost = parseObject(a['obs.observation.cost_details']);
    if (cost) s.totalCost += typeof cost['total'] === 'number' ? cost['total'] : sumNumbers(cost, Object.keys(cost));
    if (a['obs.experiment.id'] !== undefined) s.experiment = String(a['obs.experiment.id']);
  }

  private openEvents(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write(': connected\n\n');
    this.clients.add(res);
    req.on('close', () => this.clients.delete(res));
  }

  private async sendFile(res: ServerResponse, file: string): Promise<void> {
    let body = this.files.get(file);
    if (!body) {
      body = await readFile(new URL(file, STATIC_DIR));
      this.files.set(file, body);
    }
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[file.split('.').pop()!] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    });
    res.end(body);
  }
}

/** An experiment run as the viewer shows it. */
export interface ExperimentRun {
  id: string;
  name: string;
  description: string | null;
  datasetId: string | null;
  items: Array<{
    traceId: string;
    itemId: string | null;
    input: string | null;
    expectedOutput: string | null;
    output: string | null;
    error: boolean;
    scores: Record<string, number | string>;
  }>;
  averages: Record<string, number>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

function str(v: AttrValue | undefined): string | null {
  return v === undefined || v === null ? null : typeof v === 'string' ? v : JSON.stringify(v);
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

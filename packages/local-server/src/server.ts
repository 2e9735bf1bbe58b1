/**
 * The local obs HTTP server: OTLP trace ingestion, scores, a few reads, and fault injection.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { FaultQueue } from './faults.js';
import { HeldRequests, PortControl } from './outages.js';
import {
  BodyTooLargeError,
  contentEncoding,
  decodeContent,
  parseAuth,
  parseJsonBody,
  queryRecord,
  readBody,
  writeAnswer,
} from './http-util.js';
import { matchesFilters, parseFilter, spanToObservation } from './observations.js';
import { decodeOtlpJson } from './otlp-json-decode.js';
import { decodeOtlpProtobuf } from './otlp-proto-decode.js';
import { ServerResources } from './resources.js';
import { MAX_SCORES_PER_BATCH, processScoreBatch } from './scores.js';
import { SpanStore } from './span-store.js';
import type { DecodedSpan, Fault, ObsServer, ObsServerOptions, ReceivedScore, RecordedRequest, ScoreRule, WaitOptions } from './types.js';
import { VERSION } from './version.js';
import { Viewer } from './viewer-api.js';

/** Default keys and ids of the local server. */
export const DEFAULTS = {
  host: '127.0.0.1',
  publicKey: 'pk-obs-local',
  secretKey: 'sk-obs-local',
  projectId: 'local-project',
  projectName: 'Local Project',
} as const;

const TRACES_PATH = '/api/public/otel/v1/traces';
const SCORES_PATH = '/api/public/scores';
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * Starts a local obs server and resolves once it listens.
 *
 * @example
 * ```ts
 * const obs = await startObsServer();
 * // SDK options: { baseUrl: obs.url, publicKey: obs.publicKey, secretKey: obs.secretKey }
 * const spans = await obs.waitForSpans(2);
 * await obs.close();
 * ```
 */
export async function startObsServer(options: ObsServerOptions = {}): Promise<ObsServer> {
  const server = new LocalObsServer(options);
  await server.listen(options.port ?? 0, options.host ?? DEFAULTS.host);
  return server;
}

class LocalObsServer implements ObsServer {
  url = '';
  port = 0;
  readonly publicKey: string;
  readonly secretKey: string;
  readonly projectId: string;
  readonly projectName: string;
  readonly requests: RecordedRequest[] = [];
  readonly scores: ReceivedScore[] = [];
  readonly scoreRequests: RecordedRequest[] = [];

  get env(): ObsServer['env'] {
    return { OBS_BASE_URL: this.url, OBS_PUBLIC_KEY: this.publicKey, OBS_SECRET_KEY: this.secretKey };
  }

  private readonly store = new SpanStore();
  private readonly viewer = new Viewer({
    spansSince: (from) => this.store.since(from),
    spansByTrace: (traceId) => this.store.spansByTrace(traceId),
    scores: () => this.scores,
  });
  private readonly faults = new FaultQueue();
  private readonly held = new HeldRequests();
  private readonly portControl: PortControl;
  private maxBodyBytes: number;
  private readonly listeners = new Set<(spans: DecodedSpan[]) => void>();
  private readonly quiet: boolean;
  private readonly http: Server;
  private readonly closing = new AbortController();
  private readonly records = new WeakMap<ServerResponse, RecordedRequest>();
  private scoreRule: ScoreRule | undefined;
  private readonly resources = new ServerResources({
    spans: () => this.store.spans(),
    deleteTraces: (ids) => {
      this.store.deleteTraces(ids);
      const gone = new Set(ids);
      const kept = this.scores.filter((s) => !gone.has(String(s['traceId']).toLowerCase()));
      this.scores.splice(0, this.scores.length, ...kept);
    },
  });
  private closePromise: Promise<void> | undefined;

  constructor(options: ObsServerOptions) {
    this.publicKey = options.publicKey ?? DEFAULTS.publicKey;
    this.secretKey = options.secretKey ?? DEFAULTS.secretKey;
    this.projectId = options.projectId ?? DEFAULTS.projectId;
    this.projectName = options.projectName ?? DEFAULTS.projectName;
    this.quiet = options.quiet ?? false;
    if (options.onSpans) this.listeners.add(options.onSpans);
    this.listeners.add((spans) => this.viewer.notify(spans));
    this.http = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => this.internalError(res, err));
    });
    this.http.on('clientError', (_err, socket) => socket.destroy());
    this.portControl = new PortControl(this.http);
    this.maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  }

  /** @internal */
  async listen(port: number, host: string): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(port, host, () => {
        this.http.off('error', reject);
        resolve();
      });
    });
    const address = this.http.address() as AddressInfo;
    this.port = address.port;
    this.portControl.listening(this.port, host);
    const urlHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
    this.url = `http://${urlHost}:${this.port}`;
  }

  spans(): DecodedSpan[] {
    return this.store.spans();
  }

  spansByTrace(traceId: string): DecodedSpan[] {
    return this.store.spansByTrace(traceId);
  }

  spansByName(name: string | RegExp): DecodedSpan[] {
    return this.store.spansByName(name);
  }

  traceIds(): string[] {
    return this.store.traceIds();
  }

  async waitFor<T>(probe: () => T | undefined | null | false, opts: WaitOptions = {}): Promise<T> {
    const timeoutMs = opts.timeoutMs ?? 5000;
    const intervalMs = opts.intervalMs ?? 10;
    const deadline = Date.now() + timeoutMs;
    let lastError: unknown;
    for (;;) {
      try {
        const value = probe();
        if (value) return value;
        lastError = undefined;
      } catch (err) {
        lastError = err;
      }
      if (Date.now() >= deadline) {
        const what = opts.description ? ` waiting for ${opts.description}` : '';
        const why = lastError === undefined ? '' : `; last probe error: ${(lastError as Error)?.message ?? String(lastError)}`;
        throw new Error(`obs local server: timed out after ${timeoutMs}ms${what}${why}. ${this.describeState()}`);
      }
      await sleep(intervalMs);
    }
  }

  waitForSpans(count: number, opts: WaitOptions = {}): Promise<DecodedSpan[]> {
    return this.waitFor(() => (this.store.size >= count ? this.store.spans() : undefined), {
      description: `at least ${count} span${count === 1 ? '' : 's'}`,
      ...opts,
    });
  }

  injectFault(fault: Fault): void {
    this.faults.add(fault);
  }

  clearFaults(): void {
    this.faults.clear();
    this.held.releaseAll();
  }

  setMaxBodyBytes(bytes: number): void {
    this.maxBodyBytes = bytes;
  }

  takeDown(): Promise<void> {
    this.held.releaseAll();
    return this.portControl.takeDown();
  }

  bringUp(): Promise<void> {
    return this.portControl.bringUp();
  }

  async restart(downMs: number): Promise<void> {
    await this.takeDown();
    await sleep(downMs);
    await this.bringUp();
  }

  rejectScores(predicate: ScoreRule): void {
    this.scoreRule = predicate;
  }

  resetScoreRules(): void {
    this.scoreRule = undefined;
  }

  subscribe(listener: (spans: DecodedSpan[]) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  reset(): void {
    this.requests.length = 0;
    this.scores.length = 0;
    this.scoreRequests.length = 0;
    this.store.clear();
    this.viewer.reset();
    this.faults.clear();
    this.held.releaseAll();
    this.scoreRule = undefined;
    this.resources.clear();
  }

  close(): Promise<void> {
    this.closePromise ??= new Promise<void>((resolve, reject) => {
      this.closing.abort();
      this.held.releaseAll();
      if (this.portControl.isDown) return resolve();
      this.http.close((err) => (err ? reject(err) : resolve()));
      this.http.closeAllConnections();
    });
    return this.closePromise;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = new URL(req.url ?? '/', 'http://local');
    const path = target.pathname;
    const method = (req.method ?? 'GET').toUpperCase();
    // The trace viewer's page and reads: not SDK traffic, so neither recorded nor faulted.
    if (this.viewer.handles(method, path)) return this.viewer.serve(req, res, target);
    const record: RecordedRequest = {
      method,
      path,
      query: queryRecord(target.searchParams),
      url: req.url ?? '/',
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      rawBody: Buffer.alloc(0),
      body: Buffer.alloc(0),
      status: 0,
      auth: parseAuth(req.headers.authorization, this.publicKey, this.secretKey),
      receivedAt: 0,
    };
    this.records.set(res, record);

    try {
      record.rawBody = await readBody(req, this.maxBodyBytes);
    } catch (err) {
      record.receivedAt = Date.now();
      this.requests.push(record);
      if (err instanceof BodyTooLargeError) return this.answer(record, res, 413, { message: err.message }, { connection: 'close' });
      return; // the client went away mid-body
    }
    record.receivedAt = Date.now();

    // Undo the content encoding; a failure becomes a 400 after faults had their chance.
    let bodyError: string | undefined;
    const encoding = contentEncoding(headerValue(req.headers['content-encoding']));
    if (encoding === undefined) {
      record.body = record.rawBody;
      bodyError = `unsupported Content-Encoding ${JSON.stringify(req.headers['content-encoding'])}`;
    } else {
      try {
        record.body = await decodeContent(record.rawBody, encoding);
      } catch (err) {
        record.body = record.rawBody;
        bodyError = `cannot decode ${encoding} body: ${(err as Error).message}`;
      }
    }
    const json = bodyError ? undefined : parseJsonBody(record.body, headerValue(req.headers['content-type']));
    if (json !== undefined) record.json = json;

    this.requests.push(record);
    if (method === 'POST' && path === SCORES_PATH) this.scoreRequests.push(record);

    const fault = this.faults.take(path);
    if (fault) {
      if (fault.delayMs !== undefined && fault.delayMs > 0) {
        try {
          await sleep(fault.delayMs, undefined, { signal: this.closing.signal });
        } catch {
          req.socket.destroy(); // the server is closing
          return;
        }
      }
      if (fault.hang) await this.held.hold();
      if (fault.reset || fault.hang) {
        req.socket.destroy();
        return;
      }
      if (fault.status !== undefined) {
        const headers: Record<string, string> = {};
        if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
        return this.answer(record, res, fault.status, fault.body ?? { message: 'injected fault' }, headers);
      }
    }

    if (bodyError) {
      this.warn(`${method} ${path}: 400 ${bodyError}`);
      return this.answer(record, res, 400, { message: bodyError });
    }
    this.route(record, res);
  }

  /**
   * The server's own routes, matched in order: method, path (exact or pattern, its groups passed
   * on), and who may call it. The project resources (datasets, prompts, experiments, trace
   * deletion) answer after these; anything else under `/api/public/` is echoed back.
   */
  private readonly routes: Route[] = [
    {
      methods: ['GET', 'HEAD'],
      path: '/api/public/health',
      auth: 'none',
      handle: (r, res) => this.answer(r, res, 200, { status: 'OK', version: VERSION }),
    },
    { methods: ['POST'], path: TRACES_PATH, handle: (r, res) => this.ingestTraces(r, res) },
    {
      methods: ['*'],
      path: TRACES_PATH,
      handle: (r, res) => this.answer(r, res, 405, { message: `${r.method} not allowed on ${r.path}` }),
    },
    { methods: ['POST'], path: SCORES_PATH, auth: 'public', handle: (r, res) => this.createScores(r, res) },
    { methods: ['DELETE'], path: /^\/api\/public\/scores\/([^/]+)$/, handle: (r, res, [id]) => this.deleteScore(r, res, safeDecode(id!)) },
    {
      methods: ['GET'],
      path: '/api/public/projects',
      handle: (r, res) => this.answer(r, res, 200, { data: [{ id: this.projectId, name: this.projectName }] }),
    },
    { methods: ['GET'], path: '/api/public/v2/observations', handle: (r, res) => this.listObservations(r, res) },
    { methods: ['GET'], path: '/api/public/v3/scores', handle: (r, res) => this.listScores(r, res) },
  ];

  private route(record: RecordedRequest, res: ServerResponse): void {
    const { method, path } = record;
    if (!path.startsWith('/api/public/')) return this.answer(record, res, 404, { message: `no route for ${method} ${path}` });
    const match = matchRoute(this.routes, method, path);
    const auth = match?.route.auth ?? 'secret';
    if (auth !== 'none' && record.auth !== 'secret' && !(auth === 'public' && record.auth === 'public-only')) {
      return this.answer(record, res, 401, { message: AUTH_ERRORS[record.auth] ?? AUTH_ERRORS['invalid']! });
    }
    if (match) return match.route.handle(record, res, match.groups);
    const resource = this.resources.route(record);
    if (resource) return this.answer(record, res, resource.status, resource.body);
    this.answer(record, res, 200, { ok: true, method, path, query: record.query, body: record.json ?? null });
  }

  private ingestTraces(record: RecordedRequest, res: ServerResponse): void {
    const type = (headerValue(record.headers['content-type']) ?? '').toLowerCase();
    const compressed = record.rawBody !== record.body;
    let spans: DecodedSpan[];
    let responseType: string;
    try {
      if (type.includes('protobuf')) {
        spans = decodeOtlpProtobuf(record.body, compressed);
        responseType = 'application/x-protobuf';
      } else if (type.includes('json')) {
        spans = decodeOtlpJson(record.json !== undefined ? record.json : record.body, compressed);
        responseType = 'application/json';
      } else {
        return this.answer(record, res, 415, {
          message: `unsupported Content-Type ${JSON.stringify(type)}: use application/x-protobuf or application/json`,
        });
      }
    } catch (err) {
      const message = (err as Error)?.message ?? String(err);
      this.warn(`POST ${TRACES_PATH}: 400 ${message}`);
      return this.answer(record, res, 400, { message });
    }

    this.store.add(spans);
    for (const listener of this.listeners) {
      try {
        listener(spans);
      } catch (err) {
        this.warn(`span listener threw: ${(err as Error)?.stack ?? String(err)}`);
      }
    }
    // An empty body is a valid protobuf ExportTraceServiceResponse; `{}` the JSON one.
    const body = responseType === 'application/json' ? Buffer.from('{}') : Buffer.alloc(0);
    this.answer(record, res, 200, body, { 'content-type': responseType });
  }

  private createScores(record: RecordedRequest, res: ServerResponse): void {
    if (!Array.isArray(record.json)) {
      return this.answer(record, res, 400, { message: 'body must be a JSON array of scores' });
    }
    if (record.json.length > MAX_SCORES_PER_BATCH) {
      return this.answer(record, res, 400, { message: `at most ${MAX_SCORES_PER_BATCH} scores per request, got ${record.json.length}` });
    }
    const { accepted, errors } = processScoreBatch(record.json, this.scoreRule, record.receivedAt);
    this.scores.push(...accepted);
    if (errors.length === 0) return this.answer(record, res, 200, { accepted: accepted.length });
    this.answer(record, res, 207, { accepted: accepted.length, rejected: errors.length, errors });
  }

  private deleteScore(record: RecordedRequest, res: ServerResponse, id: string): void {
    for (let i = this.scores.length - 1; i >= 0; i--) {
      if (this.scores[i]!['id'] === id) this.scores.splice(i, 1);
    }
    this.answer(record, res, 204, undefined);
  }

  private listObservations(record: RecordedRequest, res: ServerResponse): void {
    const q = record.query;
    let filters: ReturnType<typeof parseFilter>;
    try {
      filters = parseFilter(q['filter']);
    } catch (err) {
      return this.answer(record, res, 400, { message: (err as Error).message });
    }
    const all = this.store
      .spans()
      .map(spanToObservation)
      .filter((o) => (q['traceId'] ? o.traceId === q['traceId'].toLowerCase() : true))
      .filter((o) => (q['sessionId'] ? o.sessionId === q['sessionId'] : true))
      .filter((o) => matchesFilters(o, filters));
    const limit = Math.min(Math.max(toInt(q['limit'], 50), 1), 1000);
    const offset = Math.max(toInt(q['cursor'], 0), 0);
    const next = offset + limit;
    this.answer(record, res, 200, {
      data: all.slice(offset, next),
      meta: { cursor: next < all.length ? String(next) : null },
    });
  }

  private listScores(record: RecordedRequest, res: ServerResponse): void {
    const q = record.query;
    const keys = ['id', 'traceId', 'observationId', 'sessionId', 'datasetRunId', 'name'] as const;
    const data = this.scores.filter((score) =>
      keys.every((key) => {
        const wanted = q[key];
        return wanted === undefined || wanted === '' || wanted.split(',').includes(String(score[key]));
      }),
    );
    this.answer(record, res, 200, { data, meta: { cursor: null } });
  }

  private answer(record: RecordedRequest, res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    record.status = status;
    writeAnswer(res, status, body, headers);
  }

  private internalError(res: ServerResponse, err: unknown): void {
    this.warn(`internal error: ${(err as Error)?.stack ?? String(err)}`);
    const record = this.records.get(res);
    if (record && !res.headersSent) record.status = 500;
    writeAnswer(res, 500, { message: `internal error: ${(err as Error)?.message ?? String(err)}` });
  }

  private warn(message: string): void {
    if (!this.quiet) console.warn(`[obs-local-server] ${message}`);
  }

  private describeState(): string {
    const counts = new Map<string, number>();
    for (const r of this.requests) {
      const key = `${r.method} ${r.path} -> ${r.status || 'pending/reset'}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const requests = [...counts].map(([k, n]) => (n > 1 ? `${k} x${n}` : k)).join(', ');
    return (
      `Received ${this.requests.length} request(s)${requests ? ` [${requests}]` : ''}, ` +
      `${this.store.size} span(s) in ${this.store.traceIds().length} trace(s), ${this.scores.length} score(s).`
    );
  }
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function toInt(v: string | undefined, fallback: number): number {
  const n = v === undefined ? NaN : Number.parseInt(v, 10);
  return Number.isFinite(n) ? n : fallback;
}

/** One route of the server: methods (`*` for any), exact path or pattern, who may call it. */
interface Route {
  methods: string[];
  path: string | RegExp;
  /** `secret` (default): Basic publicKey:secretKey; `public`: the public key alone is enough too; `none`: anyone. */
  auth?: 'secret' | 'public' | 'none';
  handle(record: RecordedRequest, res: ServerResponse, groups: string[]): void;
}

function matchRoute(routes: readonly Route[], method: string, path: string): { route: Route; groups: string[] } | undefined {
  for (const route of routes) {
    if (!route.methods.includes(method) && !route.methods.includes('*')) continue;
    if (typeof route.path === 'string') {
      if (route.path === path) return { route, groups: [] };
      continue;
    }
    const m = route.path.exec(path);
    if (m) return { route, groups: m.slice(1) };
  }
  return undefined;
}

/** Why a request without the right credentials is refused, by what it sent. */
const AUTH_ERRORS: Partial<Record<RecordedRequest['auth'], string>> = {
  none: 'Missing Authorization header (expected Basic auth with publicKey:secretKey)',
  'public-only': 'This endpoint requires the secret key',
  invalid: 'Invalid credentials: Basic auth must be publicKey:secretKey',
};

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

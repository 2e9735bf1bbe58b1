/**
 * The local obs server: composes the stores, the route modules and the test controls into one
 * HTTP server, and is the {@link ObsServer} tests hold.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { HostGuard, isLoopbackHost, parseAllowedHosts } from './http/hosts.js';
import { Router } from './http/router.js';
import { UrlSigner } from './http/signed-urls.js';
import { ViewerDoor } from './http/viewer-door.js';
import { handleRequest, type PipelineParts } from './pipeline.js';
import type { ApiRoute } from './routes/api-route.js';
import { datasetRoutes } from './routes/datasets.js';
import { experimentRoutes } from './routes/experiments.js';
import { ingestionRoutes } from './routes/ingestion.js';
import { mediaRoutes } from './routes/media.js';
import { promptRoutes } from './routes/prompts.js';
import { publicReadRoutes } from './routes/public-reads.js';
import { SCORES_PATH, scoreRoutes } from './routes/scores.js';
import { traceDeletionRoutes } from './routes/trace-deletion.js';
import { viewerApiRoutes } from './routes/viewer-api.js';
import { viewerDatasetItemRoutes } from './routes/viewer-dataset-item.js';
import { viewerStaticRoutes } from './routes/viewer-static.js';
import { Pricing } from './model/cost.js';
import { retentionPolicy } from './retention/policy.js';
import { Retention } from './retention/pruner.js';
import { projectRedirects } from './routes/project-redirects.js';
import { openStores } from './stores/open.js';
import type { ObsStores } from './stores/types.js';
import { FaultQueue } from './test-controls/faults.js';
import { ServerMediaInspector } from './test-controls/media-inspector.js';
import { type Binding, HeldRequests, PortControl } from './test-controls/outages.js';
import { RequestRecorder } from './test-controls/recorder.js';
import { waitFor } from './test-controls/waiting.js';
import type { DecodedSpan, Fault, ObsServer, ObsServerOptions, ReceivedScore, ScoreRule, WaitOptions } from './types.js';
import { escapeControls } from './text/terminal.js';
import { VERSION } from './version.js';
import { LiveEvents } from './viewer/live-events.js';

/** Default keys and ids of the local server. */
export const DEFAULTS = {
  host: '127.0.0.1',
  publicKey: 'pk-obs-local',
  secretKey: 'sk-obs-local',
  projectId: 'local-project',
  projectName: 'Local Project',
} as const;

const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * The keys the server accepts. On loopback the defaults; beyond it the defaults (published in the
 * README) would open everything, so a key not given is made at random, and a default one given
 * explicitly is refused.
 *
 * @throws Error when a default key is given for a server reachable from the network
 */
export function serverKeys(options: Pick<ObsServerOptions, 'host' | 'publicKey' | 'secretKey'>): { publicKey: string; secretKey: string } {
  if (options.host === undefined || isLoopbackHost(options.host)) {
    return { publicKey: options.publicKey ?? DEFAULTS.publicKey, secretKey: options.secretKey ?? DEFAULTS.secretKey };
  }
  for (const [flag, given, published] of [
    ['--public-key', options.publicKey, DEFAULTS.publicKey],
    ['--secret-key', options.secretKey, DEFAULTS.secretKey],
  ] as const) {
    if (given === published) {
      throw new Error(
        `${published} is the local server's published default key, and --host ${options.host} makes the server reachable from the network: pick another key with ${flag} (or leave it out for a random one)`,
      );
    }
  }
  const random = () => randomBytes(18).toString('base64url');
  return { publicKey: options.publicKey ?? `pk-obs-${random()}`, secretKey: options.secretKey ?? `sk-obs-${random()}` };
}

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
  const keys = serverKeys(options); // a refused key stops the start before the data directory is touched
  const pricing = new Pricing(options.prices ?? []);
  const stores = openStores(options, pricing);
  let server: LocalObsServer;
  try {
    server = new LocalObsServer(options, stores, keys, pricing);
  } catch (err) {
    stores.close();
    throw err;
  }
  try {
    await server.listen(options.port ?? 0);
  } catch (err) {
    stores.close(); // the port was taken: the database file is free for the next try
    throw err;
  }
  return server;
}

class LocalObsServer implements ObsServer {
  url = '';
  port = 0;
  readonly publicKey: string;
  readonly secretKey: string;
  readonly projectId: string;
  readonly projectName: string;
  readonly viewerToken: string | undefined;
  readonly media: ServerMediaInspector;

  /** The tests' request recorder: `undefined` when the server does not record (the CLI). */
  private readonly recorder: RequestRecorder | undefined;
  private readonly faults = new FaultQueue();
  private readonly held = new HeldRequests();
  private readonly listeners = new Set<(spans: DecodedSpan[]) => void>();
  private readonly closing = new AbortController();
  private readonly portControl: PortControl;
  private readonly host: string;
  private readonly quiet: boolean;
  private maxBodyBytes: number;
  private scoreRule: ScoreRule | undefined;
  private closePromise: Promise<void> | undefined;
  /** When each storage line was last said, by line. */
  private readonly storageLines = new Map<string, number>();
  private readonly retention: Retention;

  constructor(
    options: ObsServerOptions,
    private readonly stores: ObsStores,
    keys: { publicKey: string; secretKey: string },
    pricing: Pricing,
  ) {
    ({ publicKey: this.publicKey, secretKey: this.secretKey } = keys);
    this.retention = new Retention(stores, retentionPolicy(options.retention, stores.storage !== undefined), (line) => this.warn(line));
    this.recorder = options.record === false ? undefined : new RequestRecorder(SCORES_PATH);
    this.projectId = options.projectId ?? DEFAULTS.projectId;
    this.projectName = options.projectName ?? DEFAULTS.projectName;
    this.quiet = options.quiet ?? false;
    this.maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
    this.host = options.host ?? DEFAULTS.host;
    const loopback = options.host === undefined || isLoopbackHost(options.host);
    this.viewerToken = options.viewerToken ?? (loopback ? undefined : randomBytes(18).toString('base64url'));
    this.media = new ServerMediaInspector(
      () => this.recorder?.requests ?? [],
      stores.media,
      (fault) => this.injectFault(fault),
    );
    const live = new LiveEvents(stores.traces);
    if (options.onSpans) this.listeners.add(options.onSpans);
    this.listeners.add((spans) => live.notify(spans));

    const allowed = parseAllowedHosts([...(options.allowedHosts ?? []), process.env['OBS_LOCAL_ALLOWED_HOSTS'] ?? '']);
    const parts: PipelineParts = {
      hosts: new HostGuard(allowed, options.host),
      viewer: new Router([
        ...viewerStaticRoutes(),
        ...projectRedirects(),
        ...viewerDatasetItemRoutes(stores),
        ...viewerApiRoutes(stores, live, pricing),
      ]),
      door: new ViewerDoor(this.viewerToken, { publicKey: this.publicKey, secretKey: this.secretKey }, () => this.port),
      api: new Router(this.apiRoutes()),
      keys: { publicKey: this.publicKey, secretKey: this.secretKey },
      recorder: this.recorder,
      faults: this.faults,
      held: this.held,
      closing: this.closing.signal,
      maxBodyBytes: () => this.maxBodyBytes,
      warn: (message, multiline) => this.warn(message, multiline),
      warnStorage: (message) => this.warnStorage(message),
    };
    const server = () => {
      const http = createServer((req: IncomingMessage, res: ServerResponse) => handleRequest(parts, req, res));
      http.on('clientError', (_err, socket) => socket.destroy());
      return http;
    };
    // By default both loopbacks, so http://localhost, http://127.0.0.1 and http://[::1] all reach it.
    const bindings: Binding[] =
      options.host === undefined || options.host === 'localhost'
        ? [
            { http: server(), host: DEFAULTS.host },
            { http: server(), host: '::1', optional: true },
          ]
        : [{ http: server(), host: options.host }];
    this.portControl = new PortControl(bindings);
  }

  /** The public API, route module by route module. */
  private apiRoutes(): ApiRoute[] {
    const { stores } = this;
    return [
      ...publicReadRoutes({ project: { id: this.projectId, name: this.projectName }, version: VERSION, spans: stores.spans }),
      ...ingestionRoutes({ spans: stores.spans, arrived: (spans) => this.arrived(spans), warn: (m) => this.warn(m) }),
      ...scoreRoutes(stores.scores, () => this.scoreRule),
      ...datasetRoutes(stores.datasets),
      ...promptRoutes(stores.prompts),
      ...experimentRoutes(stores.spans),
      ...traceDeletionRoutes(stores),
      ...mediaRoutes({
        store: stores.media,
        signer: new UrlSigner(stores.urlKey),
        asked: (record, id, url) => this.media.asked(record, id, url),
      }),
    ];
  }

  /** @internal */
  async listen(port: number): Promise<void> {
    this.port = await this.portControl.listen(port);
    const host = this.host === 'localhost' ? DEFAULTS.host : this.host;
    const urlHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
    this.url = `http://${urlHost}:${this.port}`;
    this.retention.start();
  }

  get dataFile(): string | undefined {
    return this.stores.file;
  }

  get viewerUrl(): string {
    return this.viewerToken === undefined ? `${this.url}/` : `${this.url}/?token=${encodeURIComponent(this.viewerToken)}`;
  }

  get env(): ObsServer['env'] {
    return { OBS_BASE_URL: this.url, OBS_PUBLIC_KEY: this.publicKey, OBS_SECRET_KEY: this.secretKey };
  }

  get requests() {
    return this.recorder?.requests ?? [];
  }

  get scoreRequests() {
    return this.recorder?.scoreRequests ?? [];
  }

  get scores(): ReceivedScore[] {
    return this.stores.scores.all();
  }

  spans(): DecodedSpan[] {
    return this.stores.spans.spans();
  }

  spansByTrace(traceId: string): DecodedSpan[] {
    return this.stores.spans.spansByTrace(traceId);
  }

  spansByName(name: string | RegExp): DecodedSpan[] {
    return this.stores.spans.spansByName(name);
  }

  traceIds(): string[] {
    return this.stores.spans.traceIds();
  }

  waitFor<T>(probe: () => T | undefined | null | false, opts: WaitOptions = {}): Promise<T> {
    return waitFor(probe, opts, () => this.describeState());
  }

  waitForSpans(count: number, opts: WaitOptions = {}): Promise<DecodedSpan[]> {
    return this.waitFor(() => (this.stores.spans.size >= count ? this.stores.spans.spans() : undefined), {
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
    this.recorder?.clear();
    this.stores.clear();
    this.clearFaults();
    this.scoreRule = undefined;
  }

  close(): Promise<void> {
    this.closePromise ??= (async () => {
      const retained = this.retention.stop();
      this.closing.abort();
      this.held.releaseAll();
      await this.portControl.takeDown();
      await retained;
      this.stores.close();
    })();
    return this.closePromise;
  }

  /** Hands stored spans to the listeners (the viewer's live updates, `onSpans`, `subscribe`); tells the retention. */
  private arrived(spans: DecodedSpan[]): void {
    this.retention.touched();
    for (const listener of this.listeners) {
      try {
        listener(spans);
      } catch (err) {
        this.warn(`span listener threw: ${(err as Error)?.stack ?? String(err)}`, true);
      }
    }
  }

  /** One line (control characters escaped: messages quote what requests and spans carried); a stack keeps its lines. */
  private warn(message: string, multiline = false): void {
    if (!this.quiet) console.warn(`[obs-local-server] ${escapeControls(message, multiline)}`);
  }

  /** Says a storage line once a minute at most: a full disk would otherwise say it per request. */
  private warnStorage(message: string): void {
    const now = Date.now();
    if (now - (this.storageLines.get(message) ?? -Infinity) < 60_000) return;
    this.storageLines.set(message, now);
    this.warn(message);
  }

  private describeState(): string {
    const { spans, scores } = this.stores;
    const requests = this.recorder ? `${this.recorder.describe()}, ` : '';
    return `${requests}${spans.size} span(s) in ${spans.traceIds().length} trace(s), ${scores.all().length} score(s).`;
  }
}

/**
 * The local obs server: composes the stores, the route modules and the test controls into one
 * HTTP server, and is the {@link ObsServer} tests hold.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Router } from './http/router.js';
import { handleRequest, type PipelineParts } from './pipeline.js';
import type { ApiRoute } from './routes/api-route.js';
import { datasetRoutes } from './routes/datasets.js';
import { experimentRoutes } from './routes/experiments.js';
import { ingestionRoutes } from './routes/ingestion.js';
import { promptRoutes } from './routes/prompts.js';
import { publicReadRoutes } from './routes/public-reads.js';
import { SCORES_PATH, scoreRoutes } from './routes/scores.js';
import { traceDeletionRoutes } from './routes/trace-deletion.js';
import { viewerApiRoutes } from './routes/viewer-api.js';
import { viewerStaticRoutes } from './routes/viewer-static.js';
import { openStores } from './stores/open.js';
import type { ObsStores } from './stores/types.js';
import { FaultQueue } from './test-controls/faults.js';
import { HeldRequests, PortControl } from './test-controls/outages.js';
import { RequestRecorder } from './test-controls/recorder.js';
import { waitFor } from './test-controls/waiting.js';
import type { DecodedSpan, Fault, ObsServer, ObsServerOptions, ReceivedScore, ScoreRule, WaitOptions } from './types.js';
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
  const server = new LocalObsServer(options, openStores(options));
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

  private readonly recorder = new RequestRecorder(SCORES_PATH);
  private readonly faults = new FaultQueue();
  private readonly held = new HeldRequests();
  private readonly listeners = new Set<(spans: DecodedSpan[]) => void>();
  private readonly closing = new AbortController();
  private readonly http: Server;
  private readonly portControl: PortControl;
  private readonly quiet: boolean;
  private maxBodyBytes: number;
  private scoreRule: ScoreRule | undefined;
  private closePromise: Promise<void> | undefined;

  constructor(
    options: ObsServerOptions,
    private readonly stores: ObsStores,
  ) {
    this.publicKey = options.publicKey ?? DEFAULTS.publicKey;
    this.secretKey = options.secretKey ?? DEFAULTS.secretKey;
    this.projectId = options.projectId ?? DEFAULTS.projectId;
    this.projectName = options.projectName ?? DEFAULTS.projectName;
    this.quiet = options.quiet ?? false;
    this.maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
    const live = new LiveEvents(stores.traces);
    if (options.onSpans) this.listeners.add(options.onSpans);
    this.listeners.add((spans) => live.notify(spans));

    const parts: PipelineParts = {
      viewer: new Router([...viewerStaticRoutes(), ...viewerApiRoutes(stores, live)]),
      viewerHeaders: { 'cache-control': 'no-store' },
      api: new Router(this.apiRoutes()),
      keys: { publicKey: this.publicKey, secretKey: this.secretKey },
      recorder: this.recorder,
      faults: this.faults,
      held: this.held,
      closing: this.closing.signal,
      maxBodyBytes: () => this.maxBodyBytes,
      warn: (message) => this.warn(message),
    };
    this.http = createServer((req, res) => handleRequest(parts, req, res));
    this.http.on('clientError', (_err, socket) => socket.destroy());
    this.portControl = new PortControl(this.http);
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
      ...traceDeletionRoutes(stores.spans, stores.scores),
    ];
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
    this.port = (this.http.address() as AddressInfo).port;
    this.portControl.listening(this.port, host);
    const urlHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
    this.url = `http://${urlHost}:${this.port}`;
  }

  get env(): ObsServer['env'] {
    return { OBS_BASE_URL: this.url, OBS_PUBLIC_KEY: this.publicKey, OBS_SECRET_KEY: this.secretKey };
  }

  get requests() {
    return this.recorder.requests;
  }

  get scoreRequests() {
    return this.recorder.scoreRequests;
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
    this.recorder.clear();
    this.stores.clear();
    this.clearFaults();
    this.scoreRule = undefined;
  }

  close(): Promise<void> {
    this.closePromise ??= new Promise<void>((resolve, reject) => {
      this.closing.abort();
      this.held.releaseAll();
      const closed = (err?: Error) => {
        this.stores.close();
        if (err) reject(err);
        else resolve();
      };
      if (this.portControl.isDown) return closed();
      this.http.close(closed);
      this.http.closeAllConnections();
    });
    return this.closePromise;
  }

  /** Hands stored spans to the listeners (the viewer's live updates, `onSpans`, `subscribe`). */
  private arrived(spans: DecodedSpan[]): void {
    for (const listener of this.listeners) {
      try {
        listener(spans);
      } catch (err) {
        this.warn(`span listener threw: ${(err as Error)?.stack ?? String(err)}`);
      }
    }
  }

  private warn(message: string): void {
    if (!this.quiet) console.warn(`[obs-local-server] ${message}`);
  }

  private describeState(): string {
    const { spans, scores } = this.stores;
    return `${this.recorder.describe()}, ${spans.size} span(s) in ${spans.traceIds().length} trace(s), ${scores.all().length} score(s).`;
  }
}

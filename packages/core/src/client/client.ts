import { INSPECT_CUSTOM, inspectSummary } from '../util/secret-inspect.js';
import { basicAuth, sdkHeaders } from '../config/connection.js';
import { nothingToDeliver, type DeliveryKind, type DrainTimeoutOptions } from '../delivery/drain.js';
import { httpPost } from '../delivery/node-post.js';
import type { Post } from '../delivery/post.js';
import { logger } from '../util/logger.js';
import { SDK_VERSION } from '../util/version.js';
import { withTracingSuppressed } from '../tracing/suppress.js';
import { ObsApiClient } from './api/client.js';
import { ExperimentManager } from './experiment/manager.js';
import { DatasetManager } from './managers/dataset.js';
import { MediaManager } from './managers/media.js';
import { PromptManager } from './managers/prompt.js';
import { resolveClientSettings, type ObsClientOptions } from './options.js';
import { ScoreManager } from './scores/manager.js';
import { ScoreQueue } from './scores/queue.js';
import { describeError } from './util/describe.js';

/**
 * The obs client: the public API (`api`), batched scores (`score`), prompts, datasets,
 * experiments and media.
 *
 * Without keys or base URL it logs one warning and never throws: scores are dropped, API calls
 * reject with an `ObsApiError` saying what is missing, URL helpers resolve `undefined`.
 * The pre-6 aliases (`getPrompt`, `fetchTrace`, ...) do not exist: see contract 4.6.
 */
export class ObsClient {
  /** The generated-style public API: `api.<namespace>.<method>(...)`. */
  readonly api: ObsApiClient;
  /** Batched scores. */
  readonly score: ScoreManager;
  /** Prompt versions. */
  readonly prompt: PromptManager;
  /** Datasets with their items; `dataset.get(...).runExperiment(...)` runs an experiment on one. */
  readonly dataset: DatasetManager;
  /** Experiments on local data (`run`) and their deletion (`delete`). */
  readonly experiment: ExperimentManager;
  /** Media references. */
  readonly media: MediaManager;

  /** @internal The scores this client holds, as a drain sees them (`initObs` drains them with the spans). */
  readonly delivery: DeliveryKind;

  readonly #baseUrl: string | undefined;
  #projectId: Promise<string | undefined> | undefined;

  /** Never prints the keys (`util.inspect`, `console.log`). */
  [INSPECT_CUSTOM](_depth: number, options: unknown, inspect?: (v: unknown, o?: unknown) => string): string {
    return inspectSummary('ObsClient', { baseUrl: this.#baseUrl, configured: this.#baseUrl !== undefined }, options, inspect);
  }

  constructor(options?: ObsClientOptions) {
    const settings = resolveClientSettings(options);
    const { connection } = settings;
    const configured = connection.ok;
    const notConfiguredReason = `the obs client is not configured (${connection.problem})`;
    if (!configured) {
      logger.warnOnce('missing-connection', `ObsClient: ${notConfiguredReason}; scores are dropped and API calls refused.`);
    }
    this.#baseUrl = configured ? connection.baseUrl : undefined;
    const headers = configured
      ? { authorization: basicAuth(connection.publicKey!, connection.secretKey), ...sdkHeaders(connection.publicKey!, SDK_VERSION) }
      : {};

    this.api = new ObsApiClient({
      baseUrl: this.#baseUrl,
      headers,
      notConfiguredReason,
      timeoutInSeconds: settings.timeoutInSeconds,
      maxRetries: settings.maxRetries,
      backoff: settings.backoff,
      fetch: settings.fetch,
      // obs's own requests: no instrumentation of the app records them.
      around: withTracingSuppressed,
    });
    const scoresUrl = `${this.#baseUrl}/api/public/scores`;
    const queue = configured
      ? new ScoreQueue({
          flushAt: settings.flushAt,
          flushIntervalMs: settings.flushIntervalMs,
          maxQueueSize: settings.maxQueueSize,
          // node:http on Node.js (its sockets never hold the process open), or the fetch given;
          // obs's own request: no instrumentation of the app records it.
          post: suppressed(
            httpPost(scoresUrl, { ...headers, 'content-type': 'application/json', accept: 'application/json' }, settings.fetch),
          ),
          target: scoresUrl,
          timeoutMs: settings.timeoutInSeconds * 1000,
          reportEveryMs: settings.outageReportEveryMs,
          limits: {
            retryBudgetMs: settings.retryBudgetMs,
            backoffMs: settings.backoff?.initialDelayMs,
            maxBackoffMs: settings.backoff?.maxDelayMs,
          },
        })
      : undefined;
    this.delivery = queue ?? nothingToDeliver('scores');
    this.score = new ScoreManager({ queue, environment: settings.environment, timeoutMs: settings.shutdownTimeoutMs });
    this.prompt = new PromptManager(this.api);
    this.experiment = new ExperimentManager(this);
    this.dataset = new DatasetManager(this.api, this.experiment);
    this.media = new MediaManager(this.api, settings.fetch);
  }

  /**
   * The id of the project the keys belong to, read once from `GET /api/public/projects` and
   * cached. `undefined` (logged) when it cannot be read; a failed read is tried again next time.
   */
  getProjectId(): Promise<string | undefined> {
    if (this.#baseUrl === undefined) return Promise.resolve(undefined);
    this.#projectId ??= this.api.projects.get().then(
      (res) => {
        const id = Array.isArray(res?.data) ? res.data[0]?.id : undefined;
        if (typeof id === 'string' && id !== '') return id;
        logger.error('Obs could not find the project id: GET /api/public/projects returned no project');
        this.#projectId = undefined;
        return undefined;
      },
      (err: unknown) => {
        logger.error(`Obs could not read the project id: ${describeError(err)}`);
        this.#projectId = undefined;
        return undefined;
      },
    );
    return this.#projectId;
  }

  /** `{baseUrl}/project/{projectId}/experiments/{experimentId}`, `undefined` without a project id. */
  async getExperimentUrl(experimentId: string): Promise<string | undefined> {
    return this.projectUrl(`experiments/${encodeURIComponent(String(experimentId))}`);
  }

  /** `{baseUrl}/project/{projectId}/traces/{traceId}`, `undefined` without a project id. */
  async getTraceUrl(traceId: string): Promise<string | undefined> {
    return this.projectUrl(`traces/${encodeURIComponent(String(traceId))}`);
  }

  /**
   * Sends every queued score; resolves when the server has answered them, or after `timeoutMs`
   * (default `shutdownTimeout`, 15 s; one line says what is still buffered and retried).
   */
  async flush(options?: DrainTimeoutOptions): Promise<void> {
    await this.score.flush(options);
  }

  /**
   * Flushes within `timeoutMs` (default `shutdownTimeout`) and stops timers; what is left then is
   * dropped and counted in one line. After a shutdown that delivered everything the client stays
   * usable: later scores are sent promptly.
   */
  async shutdown(options?: DrainTimeoutOptions): Promise<void> {
    await this.score.shutdown(options);
  }

  private async projectUrl(rest: string): Promise<string | undefined> {
    const projectId = await this.getProjectId();
    if (projectId === undefined || this.#baseUrl === undefined) return undefined;
    return `${this.#baseUrl}/project/${encodeURIComponent(projectId)}/${rest}`;
  }
}

/** `post` run with tracing suppressed, for every instrumentation (OpenTelemetry's, Sentry's). */
function suppressed(post: Post): Post {
  return (body, timeoutMs, signal) => withTracingSuppressed(() => post(body, timeoutMs, signal));
}

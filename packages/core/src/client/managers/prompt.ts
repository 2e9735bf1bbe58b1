import { logger } from '../../util/logger.js';
import type { ObsApiClient } from '../api/client.js';
import type { RequestOptions } from '../api/core/types.js';
import type { GetPromptRequest } from '../api/endpoints.js';
import type { ChatMessage, ChatPlaceholder, CreatePromptRequest, PromptRecord } from '../api/types.js';
import { PromptCache } from '../prompts/cache.js';
import { ChatPromptClient, TextPromptClient, toPromptClient, type PromptClient } from '../prompts/prompt-client.js';
import { describeError } from '../util/describe.js';

/** Seconds a fetched prompt is served from the cache unless `cacheTtlSeconds` says otherwise. */
export const DEFAULT_PROMPT_CACHE_TTL_SECONDS = 60;

/** Options of `prompt.get`. */
export interface GetPromptOptions extends GetPromptRequest {
  /** `text` or `chat`: the kind of the `fallback` (and what the caller expects). */
  type?: 'text' | 'chat';
  /** Seconds the prompt is served from the cache; default 60, `0` fetches every time. */
  cacheTtlSeconds?: number;
  /**
   * Used when the prompt cannot be read and nothing is cached: a text (or, for `type: 'chat'`,
   * messages). The result then has `isFallback: true` and one warning is logged.
   */
  fallback?: string | Array<ChatMessage | ChatPlaceholder>;
  requestOptions?: RequestOptions;
}

/** Arguments of `prompt.update`. */
export interface UpdatePromptParams {
  name: string;
  version: number;
  /** Labels to add to this version. */
  newLabels: string[];
}

function cacheKey(name: string, version: number | undefined, label: string | undefined): string {
  return version !== undefined ? `${name}-version:${version}` : `${name}-label:${label ?? 'production'}`;
}

function ttlMs(seconds: unknown): number {
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : DEFAULT_PROMPT_CACHE_TTL_SECONDS * 1000;
}

/**
 * `client.prompt`: prompt versions as prompt objects, cached so `get` stays off the request path:
 * a fresh entry costs no request, a stale one is returned at once while one background refresh
 * runs, and concurrent misses share one request. `create` and `update` invalidate the name.
 */
export class PromptManager {
  private readonly cache = new PromptCache<PromptClient>();

  constructor(private readonly api: ObsApiClient) {}

  /** A prompt by `version` or `label` (server default: the `production` label). */
  get(name: string, options: GetPromptOptions & { type: 'chat' }): Promise<ChatPromptClient>;
  get(name: string, options?: GetPromptOptions & { type?: 'text' }): Promise<TextPromptClient>;
  get(name: string, options?: GetPromptOptions): Promise<PromptClient>;
  async get(name: string, options: GetPromptOptions = {}): Promise<PromptClient> {
    const { version, label, requestOptions, fallback, type } = options ?? {};
    const ttl = ttlMs(options?.cacheTtlSeconds);
    const key = cacheKey(name, version, label);
    const fetchPrompt = async (): Promise<PromptClient> => {
      const record = await this.api.prompts.get(name, { version, label }, requestOptions);
      const prompt = toPromptClient(record);
      if (ttl > 0) this.cache.set(key, prompt, ttl);
      return prompt;
    };
    if (ttl > 0) {
      const hit = this.cache.lookup(key);
      if (hit.state === 'fresh') return hit.value;
      if (hit.state === 'stale') {
        this.cache.load(key, fetchPrompt).catch((err: unknown) => {
          logger.warn(`prompt "${name}": refreshing the cached prompt failed, the cached version is still served: ${describeError(err)}`);
        });
        return hit.value;
      }
    }
    try {
      return await (ttl > 0 ? this.cache.load(key, fetchPrompt) : fetchPrompt());
    } catch (err) {
      if (fallback === undefined) throw err;
      logger.warn(`prompt "${name}" could not be read (${describeError(err)}); using the fallback given to prompt.get`);
      return toFallback(name, fallback, type);
    }
  }

  /** Creates a new version of the named prompt; cached entries of that name are dropped. */
  async create(body: CreatePromptRequest, requestOptions?: RequestOptions): Promise<PromptClient> {
    const record = await this.api.prompts.create(body, requestOptions);
    this.invalidate(body?.name);
    return toPromptClient(record);
  }

  /** Adds labels to an existing version; cached entries of that name are dropped. */
  async update(params: UpdatePromptParams, requestOptions?: RequestOptions): Promise<PromptRecord> {
    const { name, version, newLabels } = params ?? ({} as UpdatePromptParams);
    const record = await this.api.promptVersion.update(name, version, { newLabels }, requestOptions);
    this.invalidate(name);
    return record;
  }

  private invalidate(name: unknown): void {
    if (typeof name !== 'string') return;
    this.cache.invalidate((key) => key.startsWith(`${name}-version:`) || key.startsWith(`${name}-label:`));
  }
}

function toFallback(name: string, fallback: NonNullable<GetPromptOptions['fallback']>, type: GetPromptOptions['type']): PromptClient {
  const chat = type === 'chat' || Array.isArray(fallback);
  const record: PromptRecord = { name, version: 0, type: chat ? 'chat' : 'text', prompt: fallback, config: {}, labels: [], tags: [] };
  return chat ? new ChatPromptClient(record, true) : new TextPromptClient(record, true);
}

/**
 * `observeOpenAI(client)`: the client to use instead of `client`, whose `chat.completions.create`,
 * `responses.create` and `embeddings.create` calls (and the helpers built on them: `parse`,
 * `stream`, `runTools`, and clients made by `withOptions`) become obs generations or
 * embeddings, nested under the active observation. A mapping on `@obs/core/kit`'s
 * `observeClient`: the client is wrapped, never changed, and calls keep their exact return
 * values (`APIPromise`, `Stream`). The Chat Completions format is read by core's `OPENAI_CHAT`
 * (every SDK and provider speaking it shares it); the Responses API and embeddings here.
 */
import {
  bodyMethod,
  type CallSettings,
  type ClientSpec,
  followApiPromise,
  isDict,
  logger,
  OPENAI_CHAT,
  observeClient,
} from '@obs/core/kit';
import { EMBEDDINGS } from './embeddings.js';
import { providerOf } from './provider.js';
import { RESPONSES } from './responses.js';

/** Options of {@link observeOpenAI}. */
export interface ObserveOpenAIOptions {
  /** Name of every observation of this client; default the method, e.g. `openai.chat.completions.create`. */
  name?: string;
  /** Metadata on every observation of this client. */
  metadata?: Record<string, unknown>;
  /**
   * The `provider` metadata of every observation; default read from the client's base URL
   * (`openai`, `azure`, `groq`, `openrouter`, `deepseek`, `together`, `fireworks`, `xai`,
   * `mistral`, `google`, `ollama`) or, for a self-hosted server, its answers (`ollama`, `vllm`).
   */
  provider?: string;
}

const SPEC: ClientSpec = {
  adapter: '@obs/openai',
  methods: {
    'chat.completions.create': bodyMethod(OPENAI_CHAT, followApiPromise),
    'responses.create': bodyMethod(RESPONSES, followApiPromise),
    'embeddings.create': bodyMethod(EMBEDDINGS, followApiPromise),
  },
  returns: { withOptions: 'self' },
  settings(client, options: CallSettings & { provider?: string }) {
    // The option first, then the caller's own metadata, then what the base URL says.
    const provider = options.provider ?? options.metadata?.['provider'] ?? providerOf(client);
    return { name: options.name, metadata: provider === undefined ? options.metadata : { ...options.metadata, provider } };
  },
};

/**
 * Returns `client` (`new OpenAI()`, `new AzureOpenAI()`, or any client of the `openai` package,
 * pointed at OpenAI or at an OpenAI-compatible API) observed; `client` itself stays as it was.
 * The first call starts obs (`initObs()`) if nothing has yet: a client made at import time,
 * before the app's own `initObs(options)`, still traces with the app's options. Never throws: a
 * client it cannot read is returned as it is, with one warning.
 *
 * @example
 * ```ts
 * const openai = observeOpenAI(new OpenAI());
 * ```
 */
export function observeOpenAI<T extends object>(client: T, options: ObserveOpenAIOptions = {}): T {
  const c = client as Record<string, unknown>;
  const chat = c['chat'];
  if (!(isDict(chat) && isDict(chat['completions'])) && !isDict(c['responses']) && !isDict(c['embeddings'])) {
    logger.warn('observeOpenAI: this is not an OpenAI client (no chat.completions, responses or embeddings); left as it is');
    return client;
  }
  return observeClient(client, SPEC, options);
}

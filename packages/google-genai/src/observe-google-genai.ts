/**
 * `observeGoogleGenAI(client)`: the client to use instead of `client`, whose
 * `models.generateContent`, `models.generateContentStream` and `models.embedContent` calls, and
 * the `sendMessage` / `sendMessageStream` turns of the chats it creates, become obs generations
 * and embeddings, nested under the active observation. A mapping on `@obs/core/kit`: the Gemini
 * format is read in `gemini.ts`; calls keep their exact results (a stream is handed back as an
 * async generator of the same chunks). A chat turn is one generation whose input is the chat's
 * history and the new message, as the SDK sends them; the SDK's `generateContent` call inside a
 * turn runs on its own models module, which obs leaves as it is, so a turn is never recorded twice.
 */
import {
  type Dict,
  type ClientSpec,
  followPromise,
  isDict,
  logger,
  type ModelEndpoint,
  observeClient,
  type TracedMethod,
} from '@obs/core/kit';
import { EMBED, GENERATE } from './gemini.js';

/** Options of {@link observeGoogleGenAI}. */
export interface ObserveGoogleGenAIOptions {
  /** Name of every observation of this client; default `google-genai.generate_content`, `google-genai.chat.send_message`, `google-genai.embed_content`. */
  name?: string;
  /** Metadata on every observation of this client. */
  metadata?: Record<string, unknown>;
}

const CHAT_TURN: ModelEndpoint<Dict> = { ...GENERATE, name: 'google-genai.chat.send_message' };

/** A `models` method whose one argument is `{ model, contents, config }`. */
function modelsMethod(endpoint: ModelEndpoint<Dict>, streaming: boolean): TracedMethod {
  return {
    select: ([params]) =>
      isDict(params)
        ? { endpoint, request: streaming ? { ...params, stream: true } : params, streaming, signal: signalOf(params['config']) }
        : undefined,
    follow: followPromise,
  };
}

/** A chat turn: the chat's history (as the SDK keeps it) and the new message, with the chat's model and config. */
function turnMethod(streaming: boolean): TracedMethod {
  return {
    select([params], chat) {
      if (!isDict(params) || !isDict(chat)) return undefined;
      const history = Array.isArray(chat['history']) ? chat['history'] : [];
      const message = params['message'];
      const request: Dict = {
        model: chat['model'],
        contents: [...history, ...(Array.isArray(message) ? message : [message])],
        config: params['config'] ?? chat['config'],
      };
      if (streaming) request['stream'] = true;
      return { endpoint: CHAT_TURN, request, streaming, signal: signalOf(request['config']) };
    },
    follow: followPromise,
  };
}

/** `config.abortSignal`: a stream that stops after it fired is an abort. */
const signalOf = (config: unknown) => (isDict(config) && config['abortSignal'] instanceof AbortSignal ? config['abortSignal'] : undefined);

const CHAT: ClientSpec = {
  adapter: '@obs/google-genai',
  methods: { sendMessage: turnMethod(false), sendMessageStream: turnMethod(true) },
};

const SPEC: ClientSpec = {
  adapter: '@obs/google-genai',
  methods: {
    'models.generateContent': modelsMethod(GENERATE, false),
    'models.generateContentStream': modelsMethod(GENERATE, true),
    'models.embedContent': modelsMethod(EMBED, false),
  },
  returns: { 'chats.create': CHAT },
};

/**
 * Returns `client` (`new GoogleGenAI(...)` of `@google/genai` 1.x to 3.x, Gemini API or Vertex
 * AI) observed; `client` itself stays as it was. The first call starts obs (`initObs()`) if
 * nothing has yet. Never throws: a client it cannot read is returned as it is, with one warning.
 *
 * @example
 * ```ts
 * const ai = observeGoogleGenAI(new GoogleGenAI({ apiKey: process.env.GEMINI_API_KEY }));
 * ```
 */
export function observeGoogleGenAI<T extends object>(client: T, options: ObserveGoogleGenAIOptions = {}): T {
  if (!isDict((client as Record<string, unknown>)['models'])) {
    logger.warn('observeGoogleGenAI: this is not a Google Gen AI client (no models); left as it is');
    return client;
  }
  return observeClient(client, SPEC, options);
}

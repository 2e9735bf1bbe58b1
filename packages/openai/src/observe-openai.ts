/**
 * `observeOpenAI(client)`: every `chat.completions.create`, `responses.create` and
 * `embeddings.create` call of that client (and of the helpers built on them: `parse`, `stream`,
 * `runTools`, and clients made by `withOptions`) becomes an obs generation or embedding, nested
 * under the active observation. The client is observed in place and returned; calls keep their
 * exact return values (`APIPromise`, `Stream`).
 */
import { context } from '@opentelemetry/api';
import { getObsHandle, initObs } from '@obs/core';
import { errorMessage, logger } from '@obs/core/kit';
import { hookApiPromise, hookStream, isApiPromise, isStream } from './api-promise.js';
import { CHAT_COMPLETIONS } from './chat.js';
import { EMBEDDINGS } from './embeddings.js';
import type { Endpoint } from './endpoint.js';
import { type CallOptions, ModelCall } from './model-call.js';
import { RESPONSES } from './responses.js';
import { isDict } from './usage.js';

/** Options of {@link observeOpenAI}. */
export interface ObserveOpenAIOptions {
  /** Name of every observation of this client; default the method, e.g. `openai.chat.completions.create`. */
  name?: string;
  /** Metadata on every observation of this client. */
  metadata?: Record<string, unknown>;
}

/** Where a client's wrappers read their options: observing the client again replaces them. */
const OPTIONS = Symbol.for('@obs/openai.options');

type Method = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Observes an OpenAI client (`new OpenAI()`, `new AzureOpenAI()`, or any client of the `openai`
 * package) in place and returns it. Its first call starts obs (`initObs()`) if nothing has yet:
 * a client made at import time, before the app's own `initObs(options)`, still traces with the
 * app's options. Never throws: a client it cannot read is returned as it is, with one warning.
 *
 * @example
 * ```ts
 * const openai = observeOpenAI(new OpenAI());
 * ```
 */
export function observeOpenAI<T extends object>(client: T, options: ObserveOpenAIOptions = {}): T {
  try {
    const target = client as Record<string | symbol, unknown>;
    const holder = target[OPTIONS] as { options: CallOptions } | undefined;
    if (holder) {
      holder.options = options;
      return client;
    }
    const own = { options: options as CallOptions };
    const chat = target['chat'];
    const observed = [
      wrapCreate(isDict(chat) ? chat['completions'] : undefined, CHAT_COMPLETIONS, own),
      wrapCreate(target['responses'], RESPONSES, own),
      wrapCreate(target['embeddings'], EMBEDDINGS, own),
    ].filter(Boolean).length;
    if (observed === 0) {
      logger.warn('observeOpenAI: this is not an OpenAI client (no chat.completions, responses or embeddings); left as it is');
      return client;
    }
    Object.defineProperty(target, OPTIONS, { value: own, enumerable: false });
    const withOptions = target['withOptions'];
    if (typeof withOptions === 'function') {
      target['withOptions'] = function (this: unknown, ...args: unknown[]) {
        const derived = (withOptions as Method).apply(this, args);
        return typeof derived === 'object' && derived !== null ? observeOpenAI(derived, own.options) : derived;
      };
    }
  } catch (err) {
    logger.warn(`observeOpenAI: ${errorMessage(err)}; the client is left unobserved`);
  }
  return client;
}

/** Replaces `resource.create` with a traced one; false when there is none. */
function wrapCreate(resource: unknown, endpoint: Endpoint, holder: { options: CallOptions }): boolean {
  if (typeof resource !== 'object' || resource === null) return false;
  const r = resource as Record<string, unknown>;
  const original = r['create'];
  if (typeof original !== 'function') return false;
  r['create'] = function create(this: unknown, ...args: unknown[]) {
    return tracedCall(original as Method, this, args, endpoint, holder.options);
  };
  return true;
}

function tracedCall(original: Method, self: unknown, args: unknown[], endpoint: Endpoint, options: CallOptions): unknown {
  const body = args[0];
  let call: ModelCall | undefined;
  try {
    getObsHandle() ?? initObs();
    if (isDict(body)) call = ModelCall.start(endpoint, body, options);
  } catch (err) {
    logger.warn(`@obs/openai: ${endpoint.name} not observed: ${errorMessage(err)}`);
  }
  if (!call) return original.apply(self, args);
  const started = call;
  let result: unknown;
  try {
    result = context.with(started.context(), () => original.apply(self, args));
  } catch (err) {
    started.fail(err);
    throw err;
  }
  const streaming = (body as Record<string, unknown>)['stream'] === true;
  let seen = false;
  const parsed = (value: unknown) => {
    // The SDK's own helpers can hand the same value through two hooks: read it once.
    if (seen) return value;
    seen = true;
    if (streaming && isStream(value)) hookStream(value, (it) => started.observeStream(it));
    else started.finish(value);
    return value;
  };
  if (isApiPromise(result)) hookApiPromise(result, { parsed, failed: (err) => started.fail(err), raw: () => started.raw() });
  else if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') {
    // Not an APIPromise (a mocked client): observe its settlement alongside the caller.
    (result as PromiseLike<unknown>).then(parsed, (err: unknown) => started.fail(err));
  } else parsed(result);
  return result;
}

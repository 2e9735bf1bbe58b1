/**
 * `observeAnthropic(client)`: the client to use instead of `client`, whose `messages.create` and
 * `beta.messages.create` calls (and the helpers built on them: `messages.stream()`, `parse()`,
 * the tool runner, clients made by `withOptions`) become obs generations, nested under the active
 * observation. A mapping on `@obs/core/kit`: the Messages format is read by core's
 * `ANTHROPIC_MESSAGES` (shared with Anthropic models on Bedrock), calls keep their exact return
 * values (`APIPromise`, `Stream`, `MessageStream`). `@anthropic-ai/sdk` 1.x records its own
 * OpenTelemetry span per call; the observed client is a copy of yours with those spans off, so
 * each call is one generation, never two.
 */
import {
  ANTHROPIC_MESSAGES,
  bodyMethod,
  type ClientSpec,
  followApiPromise,
  isDict,
  logger,
  type ModelEndpoint,
  observeClient,
} from '@obs/core/kit';

/** Options of {@link observeAnthropic}. */
export interface ObserveAnthropicOptions {
  /** Name of every observation of this client; default `anthropic.messages.create` (`anthropic.beta.messages.create`). */
  name?: string;
  /** Metadata on every observation of this client. */
  metadata?: Record<string, unknown>;
}

const BETA_MESSAGES: ModelEndpoint = { ...ANTHROPIC_MESSAGES, name: 'anthropic.beta.messages.create' };

const SPEC: ClientSpec = {
  adapter: '@obs/anthropic',
  methods: {
    'messages.create': bodyMethod(ANTHROPIC_MESSAGES, followApiPromise),
    'beta.messages.create': bodyMethod(BETA_MESSAGES, followApiPromise),
  },
  returns: { withOptions: 'self' },
  prepare: withoutSdkSpans,
};

/**
 * Returns `client` (`new Anthropic()`, or any client of `@anthropic-ai/sdk` 0.50 to 1.x)
 * observed; `client` itself stays as it was. The first call starts obs (`initObs()`) if nothing
 * has yet. Never throws: a client it cannot read is returned as it is, with one warning.
 *
 * @example
 * ```ts
 * const anthropic = observeAnthropic(new Anthropic());
 * ```
 */
export function observeAnthropic<T extends object>(client: T, options: ObserveAnthropicOptions = {}): T {
  if (!isDict((client as Record<string, unknown>)['messages'])) {
    logger.warn('observeAnthropic: this is not an Anthropic client (no messages); left as it is');
    return client;
  }
  return observeClient(client, SPEC, options);
}

/**
 * A client whose own spans are on (`@anthropic-ai/sdk` 1.x, by default), as a copy with them
 * off: obs's generation records the call, with its content, usage and media. Any other client
 * as it is.
 */
function withoutSdkSpans(client: object): object {
  const c = client as { openTelemetry?: unknown; withOptions?: unknown };
  const otel = c.openTelemetry;
  if (!isDict(otel) || !isDict(otel['traces']) || otel['traces']['enabled'] !== true || typeof c.withOptions !== 'function') {
    return client;
  }
  return (c.withOptions as (o: object) => object).call(client, {
    openTelemetry: { ...otel, traces: { ...otel['traces'], enabled: false } },
  });
}

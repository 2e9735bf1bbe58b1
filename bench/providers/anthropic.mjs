// The Anthropic row: `messages.create` (a system prompt and a user message) through
// `@anthropic-ai/sdk` 1.x, unwrapped, through `@obs/anthropic`, and through the peers that wrap
// the same SDK: OpenInference's Anthropic instrumentation (its own tracer provider, exporting
// OTLP to the same obs server), Sentry's `instrumentAnthropicAiClient` (`@sentry/node` 10, its
// envelopes to the stand-in's sink: no Sentry server), LangSmith's `wrapAnthropic` (its runs to
// the stand-in's sink). Each setup runs in its own process. The SDK's own OpenTelemetry spans
// (1.x) are off in the peers' processes that register a tracer provider, as `@obs/anthropic`
// turns them off on its client: every setup pays for its wrapper only.
export const label = 'messages.create';
export const answer = 'Refunds take five business days.';

const usage = { input_tokens: 24, cache_read_input_tokens: 8, cache_creation_input_tokens: 0, output_tokens: 7 };
const message = {
  id: 'msg_bench',
  type: 'message',
  role: 'assistant',
  model: 'claude-bench',
  content: [{ type: 'text', text: answer, citations: null }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage,
};
const event = (e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;
const sse = [
  { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'ping' },
  ...answer
    .split(' ')
    .map((w, i) => ({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: i === 0 ? w : ` ${w}` } })),
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 7 } },
  { type: 'message_stop' },
]
  .map(event)
  .join('');

export const routes = {
  '/v1/messages': {
    json: JSON.stringify(message),
    stream: { contentType: 'text/event-stream', body: sse },
    isStream: (body) => body.includes('"stream":true'),
  },
};

const request = {
  model: 'claude-bench',
  max_tokens: 256,
  system: 'Answer briefly.',
  messages: [{ role: 'user', content: 'How long do refunds take?' }],
  temperature: 0.2,
};

export async function call(client, stream) {
  if (!stream) return (await client.messages.create(request)).content[0].text;
  let text = '';
  for await (const e of await client.messages.create({ ...request, stream: true })) {
    if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') text += e.delta.text;
  }
  return text;
}

const sdk = async (ctx, options = {}) => {
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  return new Anthropic({ apiKey: 'sk-ant-bench', baseURL: ctx.standInURL, maxRetries: 0, ...options });
};

export const setups = [
  {
    name: '@anthropic-ai/sdk 1.x, unwrapped',
    create: async (ctx) => ({ client: await sdk(ctx), flush: async () => {} }),
  },
  {
    name: '@obs/anthropic observeAnthropic',
    scope: 'obs-sdk',
    create: async (ctx) => {
      const { initObs } = await import('@obs/core');
      const { observeAnthropic } = await import('@obs/anthropic');
      const obs = initObs({ ...ctx.obs, flushOnExit: false });
      return { client: observeAnthropic(await sdk(ctx)), flush: () => obs.flush() };
    },
  },
  {
    name: 'OpenInference AnthropicInstrumentation 0.2',
    scope: '@arizeai/openinference-instrumentation-anthropic',
    create: async (ctx) => {
      const { otlpProvider } = await import('./otlp-provider.mjs');
      const { AnthropicInstrumentation } = await import('@arizeai/openinference-instrumentation-anthropic');
      const module = await import('@anthropic-ai/sdk');
      const { provider, flush } = await otlpProvider(ctx.obs);
      const instrumentation = new AnthropicInstrumentation({ tracerProvider: provider });
      instrumentation.manuallyInstrument(module);
      return { client: await sdk(ctx), flush };
    },
  },
  {
    name: 'Sentry instrumentAnthropicAiClient (@sentry/node 10)',
    sink: 'sentry',
    create: async (ctx) => {
      const Sentry = await import('@sentry/node');
      const dsn = `http://public@${new URL(ctx.standInURL).host}/1`;
      Sentry.init({ dsn, tracesSampleRate: 1, sendDefaultPii: true, defaultIntegrations: false });
      const client = Sentry.instrumentAnthropicAiClient(await sdk(ctx, { openTelemetry: false }), {
        recordInputs: true,
        recordOutputs: true,
      });
      return { client, flush: () => Sentry.flush(10_000) };
    },
  },
  {
    name: 'LangSmith wrapAnthropic',
    sink: 'langsmith',
    create: async (ctx) => {
      const { Client } = await import('langsmith');
      const { wrapAnthropic } = await import('langsmith/wrappers/anthropic');
      const ls = new Client({ apiUrl: ctx.standInURL, apiKey: 'ls-bench' });
      const client = wrapAnthropic(await sdk(ctx), { client: ls, tracingEnabled: true });
      return { client, flush: () => ls.awaitPendingTraceBatches() };
    },
  },
];

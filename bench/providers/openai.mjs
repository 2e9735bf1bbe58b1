// The OpenAI row: `chat.completions.create` (a system and a user message) through `openai` 7,
// unwrapped, through `@obs/openai`, and through Langfuse's `observeOpenAI` (`@langfuse/openai`
// 5.11 with `LangfuseSpanProcessor` on a registered tracer provider, as Langfuse's docs set it
// up, exporting to the same obs server).
export const label = 'chat.completions.create';
export const answer = 'Refunds take five business days.';

const completion = {
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'gpt-bench',
  choices: [{ index: 0, message: { role: 'assistant', content: answer, refusal: null }, finish_reason: 'stop', logprobs: null }],
  usage: {
    prompt_tokens: 24,
    completion_tokens: 7,
    total_tokens: 31,
    prompt_tokens_details: { cached_tokens: 8 },
    completion_tokens_details: { reasoning_tokens: 0 },
  },
};
const chunk = (delta, finish = null, extra = {}) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-bench', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
const sse = [
  chunk({ role: 'assistant', content: '' }),
  ...answer.split(' ').map((w, i) => chunk({ content: i === 0 ? w : ` ${w}` })),
  chunk({}, 'stop'),
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-bench', choices: [], usage: { prompt_tokens: 24, completion_tokens: 7, total_tokens: 31 } })}\n\n`,
  'data: [DONE]\n\n',
].join('');

export const routes = {
  '/v1/chat/completions': {
    json: JSON.stringify(completion),
    stream: { contentType: 'text/event-stream', body: sse },
    isStream: (body) => body.includes('"stream":true'),
  },
};

const request = {
  model: 'gpt-bench',
  messages: [
    { role: 'system', content: 'Answer briefly.' },
    { role: 'user', content: 'How long do refunds take?' },
  ],
  temperature: 0.2,
};

export async function call(client, stream) {
  if (!stream) return (await client.chat.completions.create(request)).choices[0].message.content;
  let text = '';
  for await (const c of await client.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } })) {
    text += c.choices[0]?.delta?.content ?? '';
  }
  return text;
}

const sdk = async (ctx) => {
  const { default: OpenAI } = await import('openai');
  return new OpenAI({ apiKey: 'sk-bench', baseURL: `${ctx.standInURL}/v1`, maxRetries: 0 });
};

export const setups = [
  { name: 'openai 7, unwrapped', create: async (ctx) => ({ client: await sdk(ctx), flush: async () => {} }) },
  {
    name: '@obs/openai observeOpenAI',
    scope: 'obs-sdk',
    create: async (ctx) => {
      const { initObs } = await import('@obs/core');
      const { observeOpenAI } = await import('@obs/openai');
      const obs = initObs({ ...ctx.obs, flushOnExit: false });
      return { client: observeOpenAI(await sdk(ctx)), flush: () => obs.flush() };
    },
  },
  {
    name: '@langfuse/openai 5.11 observeOpenAI',
    scope: 'langfuse-sdk',
    create: async (ctx) => {
      process.env.OTEL_BSP_MAX_QUEUE_SIZE ??= '100000';
      const { observeOpenAI } = await import('@langfuse/openai');
      const { LangfuseSpanProcessor } = await import('@langfuse/otel');
      const { NodeTracerProvider } = await import('@opentelemetry/sdk-trace-node');
      const processor = new LangfuseSpanProcessor(ctx.obs);
      new NodeTracerProvider({ spanProcessors: [processor] }).register();
      return { client: observeOpenAI(await sdk(ctx)), flush: () => processor.forceFlush() };
    },
  },
];

// The Bedrock row: `send(new ConverseCommand(...))` (a system block and a user message) through
// `@aws-sdk/client-bedrock-runtime` 3.x over HTTP/2 (its default; the stand-in serves both), a
// streamed call as ConverseStream in its binary event-stream framing; unwrapped, through
// `@obs/bedrock`, and through OpenInference's Bedrock instrumentation (its own tracer provider,
// exporting OTLP to the same obs server). Sentry and LangSmith have no Bedrock wrapper for
// JavaScript. Each setup runs in its own process.
import { crc32 } from 'node:zlib';

export const label = 'send(ConverseCommand)';
export const answer = 'Refunds take five business days.';
/** The SDK's default handler talks HTTP/2: the stand-in's cleartext HTTP/2 port. */
export const http2 = true;

const MODEL = 'anthropic.claude-bench-v1';
const usage = { inputTokens: 24, outputTokens: 7, totalTokens: 39, cacheReadInputTokens: 8 };

/** One event-stream message: prelude (lengths and their CRC), string headers, JSON payload, CRC. */
function message(eventType, payload) {
  const headers = Buffer.concat(
    Object.entries({ ':message-type': 'event', ':event-type': eventType, ':content-type': 'application/json' }).map(([name, value]) => {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(Buffer.byteLength(value));
      return Buffer.concat([Buffer.from([name.length]), Buffer.from(name), Buffer.from([7]), length, Buffer.from(value)]);
    }),
  );
  const body = Buffer.from(JSON.stringify(payload));
  const prelude = Buffer.alloc(12);
  prelude.writeUInt32BE(16 + headers.length + body.length, 0);
  prelude.writeUInt32BE(headers.length, 4);
  prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
  const withoutCrc = Buffer.concat([prelude, headers, body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(withoutCrc));
  return Buffer.concat([withoutCrc, crc]);
}

const events = Buffer.concat([
  message('messageStart', { role: 'assistant' }),
  ...answer.split(' ').map((w, i) => message('contentBlockDelta', { contentBlockIndex: 0, delta: { text: i === 0 ? w : ` ${w}` } })),
  message('contentBlockStop', { contentBlockIndex: 0 }),
  message('messageStop', { stopReason: 'end_turn' }),
  message('metadata', { usage, metrics: { latencyMs: 5 } }),
]);

export const routes = {
  [`/model/${MODEL}/converse`]: {
    json: JSON.stringify({
      output: { message: { role: 'assistant', content: [{ text: answer }] } },
      stopReason: 'end_turn',
      usage,
      metrics: { latencyMs: 5 },
    }),
  },
  [`/model/${MODEL}/converse-stream`]: {
    json: '',
    stream: { contentType: 'application/vnd.amazon.eventstream', body: events },
    isStream: () => true,
  },
};

const input = {
  modelId: MODEL,
  system: [{ text: 'Answer briefly.' }],
  messages: [{ role: 'user', content: [{ text: 'How long do refunds take?' }] }],
  inferenceConfig: { maxTokens: 256, temperature: 0.2 },
};

let commands;
export async function call(client, stream) {
  commands ??= await import('@aws-sdk/client-bedrock-runtime');
  if (!stream) return (await client.send(new commands.ConverseCommand(input))).output.message.content[0].text;
  let text = '';
  for await (const e of (await client.send(new commands.ConverseStreamCommand(input))).stream)
    text += e.contentBlockDelta?.delta?.text ?? '';
  return text;
}

const sdk = async (ctx) => {
  const { BedrockRuntimeClient } = await import('@aws-sdk/client-bedrock-runtime');
  return new BedrockRuntimeClient({
    region: 'us-east-1',
    endpoint: ctx.standInH2URL,
    credentials: { accessKeyId: 'AKIDBENCH', secretAccessKey: 'bench-secret' },
    maxAttempts: 1,
  });
};

export const setups = [
  {
    name: '@aws-sdk/client-bedrock-runtime 3.x, unwrapped',
    create: async (ctx) => ({ client: await sdk(ctx), flush: async () => {} }),
  },
  {
    name: '@obs/bedrock observeBedrock',
    scope: 'obs-sdk',
    create: async (ctx) => {
      const { initObs } = await import('@obs/core');
      const { observeBedrock } = await import('@obs/bedrock');
      const obs = initObs({ ...ctx.obs, flushOnExit: false });
      return { client: observeBedrock(await sdk(ctx)), flush: () => obs.flush() };
    },
  },
  {
    name: 'OpenInference BedrockInstrumentation 0.5',
    scope: '@arizeai/openinference-instrumentation-bedrock',
    create: async (ctx) => {
      const { otlpProvider } = await import('./otlp-provider.mjs');
      const { BedrockInstrumentation } = await import('@arizeai/openinference-instrumentation-bedrock');
      const module = await import('@aws-sdk/client-bedrock-runtime');
      const { provider, flush } = await otlpProvider(ctx.obs);
      const instrumentation = new BedrockInstrumentation({ tracerProvider: provider });
      instrumentation.manuallyInstrument(module);
      return { client: await sdk(ctx), flush };
    },
  },
];

// CPU per OpenAI SDK call that each wrapper adds above an unwrapped client (issue 35 item 5):
// `chat.completions.create` against a local fake endpoint (its own process), through the plain
// `openai` client, through @obs/openai's `observeOpenAI`, and through Langfuse's
// `observeOpenAI` (@langfuse/openai 5.11 with its span processor), all in ONE process, order
// rotated per repetition, median of the repetitions. A block is `calls` sequential calls (each
// awaited; a stream read to its end), then the setup's flush: export to the local obs server
// (another process) is inside the block, as the calls' cost.
//
//   node bench/openai/run.mjs [--calls 2000] [--reps 7] [--stream]
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { observeOpenAI as langfuseObserveOpenAI } from '@langfuse/openai';
import { LangfuseSpanProcessor } from '@langfuse/otel';
import { setLangfuseTracerProvider } from '@langfuse/tracing';
import { initObs } from '@obs/core';
import { observeOpenAI } from '@obs/openai';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import OpenAI from 'openai';
import { ask, median, startObsServerProcess } from '../lib/http-rounds.mjs';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '2000' },
    reps: { type: 'string', default: '7' },
    stream: { type: 'boolean', default: false },
  },
});
const N = Number(values.calls);
const REPS = Number(values.reps);
const STREAM = values.stream;

const { child: obsServer, conn } = await startObsServerProcess();
const fake = fork(fileURLToPath(new URL('./fake-openai-process.mjs', import.meta.url)), [], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const [{ port }] = await once(fake, 'message');
const baseURL = `http://127.0.0.1:${port}/v1`;

// Each setup exports to the same obs server: obs through its own provider, Langfuse through an
// isolated provider with its processor, so neither sees the other's spans.
process.env.OTEL_BSP_MAX_QUEUE_SIZE ??= '100000';
const obs = initObs({ baseUrl: conn.url, publicKey: conn.publicKey, secretKey: conn.secretKey, flushOnExit: false });
const lfProcessor = new LangfuseSpanProcessor({ baseUrl: conn.url, publicKey: conn.publicKey, secretKey: conn.secretKey });
setLangfuseTracerProvider(new NodeTracerProvider({ spanProcessors: [lfProcessor] }));

const client = () => new OpenAI({ apiKey: 'sk-bench', baseURL, maxRetries: 0 });
const variants = [
  { name: 'openai, unwrapped', openai: client(), flush: async () => {} },
  { name: '@obs/openai observeOpenAI', openai: observeOpenAI(client()), flush: () => obs.flush() },
  { name: '@langfuse/openai 5.11 observeOpenAI', openai: langfuseObserveOpenAI(client()), flush: () => lfProcessor.forceFlush() },
];

const request = {
  model: 'gpt-bench',
  messages: [
    { role: 'system', content: 'Answer briefly.' },
    { role: 'user', content: 'How long do refunds take?' },
  ],
  temperature: 0.2,
  ...(STREAM ? { stream: true, stream_options: { include_usage: true } } : {}),
};

async function call(openai) {
  const result = await openai.chat.completions.create(request);
  if (!STREAM) return result.choices[0].message.content;
  let text = '';
  for await (const chunk of result) text += chunk.choices[0]?.delta?.content ?? '';
  return text;
}

/** Wall and CPU (user + system of this process) µs per call, flush included. */
async function block(v) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const text = await call(v.openai);
    if (text !== 'Refunds take five business days.') throw new Error(`${v.name}: unexpected answer ${text}`);
  }
  await v.flush();
  const cpu = process.cpuUsage(c0);
  return { wall: ((performance.now() - t0) * 1000) / N, cpu: (cpu.user + cpu.system) / N };
}

for (const v of variants) await block(v); // warm-up, not measured
const before = await ask(obsServer, 'stats', 'spans');
const results = new Map(variants.map((v) => [v.name, { wall: [], cpu: [] }]));
for (let rep = 0; rep < REPS; rep++) {
  const order = variants.map((_, i) => variants[(i + rep) % variants.length]);
  for (const v of order) {
    const r = await block(v);
    results.get(v.name).wall.push(r.wall);
    results.get(v.name).cpu.push(r.cpu);
  }
}
const after = await ask(obsServer, 'stats', 'spans');

const base = median(results.get(variants[0].name).cpu);
console.log(`\nchat.completions.create${STREAM ? ' (stream, read to the end)' : ''}: ${N} calls per block, median of ${REPS} blocks\n`);
console.log('| Setup | CPU µs per call | added CPU µs per call | wall µs per call |');
console.log('| --- | ---: | ---: | ---: |');
for (const v of variants) {
  const r = results.get(v.name);
  const cpu = median(r.cpu);
  console.log(
    `| ${v.name} | ${cpu.toFixed(0)} | ${v === variants[0] ? '-' : `+${(cpu - base).toFixed(0)}`} | ${median(r.wall).toFixed(0)} |`,
  );
}
// Every measured call must have arrived: one span per call and setup.
const spans = (scope) => (after.counts[scope] ?? 0) - (before.counts[scope] ?? 0);
console.log(
  `\nspans received in the measured blocks: obs ${spans('obs-sdk')}, Langfuse ${spans('langfuse-sdk')} (expected ${N * REPS} each)`,
);

obsServer.send('close');
fake.send('close');
await obs.shutdown();
await lfProcessor.shutdown();

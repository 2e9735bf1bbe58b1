// Callback handler overhead on a LangChain chain: prompt -> FakeListChatModel -> StringOutputParser
// (4 runs per invocation). All setups in ONE process, order rotated per repetition, 2,000
// sequential invocations per block, median of 7 repetitions. A block's time includes waiting for
// LangChain's background callbacks and the export of every span to the local obs server (run in
// a child process; ours sends OTLP protobuf+gzip, Langfuse's processor OTLP JSON, both over HTTP to
// the same server). Heap growth is measured after the timings (see below).
//
//   node --expose-gc bench/langchain/run.mjs [--invocations 2000] [--reps 7]
import { parseArgs } from 'node:util';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { awaitAllCallbacks } from '@langchain/core/callbacks/promises';
import { CallbackHandler as LangfuseHandler } from '@langfuse/langchain';
import { LangfuseSpanProcessor } from '@langfuse/otel';
import { setLangfuseTracerProvider } from '@langfuse/tracing';
import { initObs } from '@obs/core';
import { CallbackHandler } from '@obs/langchain';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ask, median, startObsServerProcess } from '../lib/http-rounds.mjs';
import { benchChain } from './chain.mjs';

const { values } = parseArgs({ options: { invocations: { type: 'string', default: '2000' }, reps: { type: 'string', default: '7' } } });
const N = Number(values.invocations);
const REPS = Number(values.reps);
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');

// The obs server in a child process.
const { child, conn } = await startObsServerProcess();

// obs: its global provider. Langfuse: an isolated provider with its span processor, so neither
// processor sees the other's spans. A block never yields to the event loop (the fake model has no
// I/O), so every span of a block waits for the flush: OTel's BatchSpanProcessor under Langfuse
// keeps 2,048 by default and would drop three quarters of them; raised so both export everything.
process.env.OTEL_BSP_MAX_QUEUE_SIZE ??= '100000';
const obs = initObs({ baseUrl: conn.url, publicKey: conn.publicKey, secretKey: conn.secretKey, flushOnExit: false });
const lfProcessor = new LangfuseSpanProcessor({ baseUrl: conn.url, publicKey: conn.publicKey, secretKey: conn.secretKey });
setLangfuseTracerProvider(new NodeTracerProvider({ spanProcessors: [lfProcessor] }));

class EmptyHandler extends BaseCallbackHandler {
  name = 'empty';
}

const chain = benchChain();

const ours = new CallbackHandler({ userId: 'bench-user', sessionId: 'bench-session' });
const oursQueued = new CallbackHandler({ userId: 'bench-user', sessionId: 'bench-session', background: true });
const variants = [
  { name: 'no callbacks', callbacks: undefined, flush: () => awaitAllCallbacks() },
  { name: 'empty handler', callbacks: [new EmptyHandler()], flush: () => awaitAllCallbacks() },
  { name: 'obs (default: inline)', callbacks: [ours], flush: () => ours.flush() },
  { name: 'obs (background: true)', callbacks: [oursQueued], flush: () => oursQueued.flush() },
  {
    name: 'Langfuse 5.11 + LangfuseSpanProcessor',
    callbacks: [new LangfuseHandler({ userId: 'bench-user', sessionId: 'bench-session' })],
    flush: async () => {
      await awaitAllCallbacks();
      await lfProcessor.forceFlush();
    },
  },
];

function heap() {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}

/** Wall and CPU (user + system of this process) µs per invocation, waiting and export included. */
async function block(v) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await chain.invoke({ question: `question ${i}` }, v.callbacks ? { callbacks: v.callbacks } : undefined);
  await v.flush();
  const cpu = process.cpuUsage(c0);
  return { wall: ((performance.now() - t0) * 1000) / N, cpu: (cpu.user + cpu.system) / N };
}

// Warm-up: one block each, not measured.
for (const v of variants) await block(v);
const results = new Map(variants.map((v) => [v.name, { us: [], cpu: [], heapDelta: [] }]));
for (let rep = 0; rep < REPS; rep++) {
  const order = variants.map((_, i) => variants[(i + rep) % variants.length]);
  for (const v of order) {
    const { wall, cpu } = await block(v);
    results.get(v.name).us.push(wall);
    results.get(v.name).cpu.push(cpu);
  }
  process.stderr.write(`rep ${rep + 1}/${REPS} done\n`);
}
// Heap, measured apart from the timings (a forced full GC before a block slows the block down):
// per variant, 6 more blocks; growth = (heap after GC after block 6 - after block 2) / 4, so
// one-off warm-up allocations (compiled code, caches) do not count.
const HEAP_BLOCKS = 6;
for (const v of variants) {
  const after = [];
  for (let i = 0; i < HEAP_BLOCKS; i++) {
    await block(v);
    after.push(heap());
  }
  results.get(v.name).heapDelta.push((after[HEAP_BLOCKS - 1] - after[1]) / (HEAP_BLOCKS - 2));
}

const med = (name, key = 'us') => median(results.get(name)[key]);
const LANGFUSE = 'Langfuse 5.11 + LangfuseSpanProcessor';
const empty = med('empty handler');
const langfuseExtra = med(LANGFUSE) - empty;
const emptyCpu = med('empty handler', 'cpu');
const langfuseExtraCpu = med(LANGFUSE, 'cpu') - emptyCpu;
const { counts } = await ask(child, 'stats', 'counts');

console.log(`\n${N} invocations per block, ${REPS} repetitions, Node ${process.version}, ${new Date().toISOString()}\n`);
const signed = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(0)}`;
console.log(
  "| Setup | wall µs/invocation | above empty handler | share of Langfuse's extra | CPU µs/invocation | above empty handler | share of Langfuse's extra | heap growth after GC, per block |",
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const v of variants) {
  const base = v.name === 'no callbacks' || v.name === 'empty handler';
  const m = med(v.name);
  const c = med(v.name, 'cpu');
  const h = median(results.get(v.name).heapDelta) / 1024;
  console.log(
    `| ${v.name} | ${m.toFixed(0)} | ${v.name === 'empty handler' ? '-' : signed(m - empty)} | ${base ? '-' : `${((100 * (m - empty)) / langfuseExtra).toFixed(0)}%`} ` +
      `| ${c.toFixed(0)} | ${v.name === 'empty handler' ? '-' : signed(c - emptyCpu)} | ${base ? '-' : `${((100 * (c - emptyCpu)) / langfuseExtraCpu).toFixed(0)}%`} | ${signed(h)} KiB |`,
  );
}
console.log(
  `\nAll samples, wall µs: ${JSON.stringify(Object.fromEntries([...results].map(([k, r]) => [k, r.us.map((x) => Math.round(x))])))}`,
);
console.log(
  `All samples, CPU µs: ${JSON.stringify(Object.fromEntries([...results].map(([k, r]) => [k, r.cpu.map((x) => Math.round(x))])))}`,
);
console.log(
  `Spans received by the server per scope: ${JSON.stringify(counts)} (expected ${(REPS + 1 + HEAP_BLOCKS) * N * 4 * 2} obs-sdk, ${(REPS + 1 + HEAP_BLOCKS) * N * 4} langfuse-sdk)`,
);
console.log(`obs handler runs still open: inline ${ours.openRuns}, background ${oursQueued.openRuns}`);

await obs.shutdown();
await lfProcessor.shutdown();
child.kill();
process.exit(0);

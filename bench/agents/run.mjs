// CPU per agent turn that each OpenAI Agents SDK instrumentation adds (issue 47 item 7): one run
// of an agent with a tool (a model call that asks for `weather`, the tool, a model call that
// answers: two turns) against a local Responses API endpoint (its own process), with the SDK's
// tracing on and no processor, with @obs/openai-agents' `ObsTraceProcessor`, and with
// OpenInference's `OpenInferenceTracingProcessor` (its spans exported over OTLP to the same obs
// server), all in ONE process, order rotated per repetition, median of the repetitions. A block
// is `runs` sequential runs, then the setup's flush: export to the local obs server (another
// process) is inside the block.
//
//   node bench/agents/run.mjs [--runs 500] [--reps 7]
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { OpenInferenceTracingProcessor } from '@arizeai/openinference-instrumentation-openai-agents';
import { initObs } from '@obs/core';
import { ObsTraceProcessor } from '@obs/openai-agents';
import { run, setDefaultOpenAIClient, setTraceProcessors, setTracingDisabled } from '@openai/agents';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import OpenAI from 'openai';
import { ask, median, startObsServerProcess } from '../lib/http-rounds.mjs';
import { ANSWER, agent, QUESTION } from './agent.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '500' }, reps: { type: 'string', default: '7' } } });
const N = Number(values.runs);
const REPS = Number(values.reps);
const TURNS = 2;

const { child: obsServer, conn } = await startObsServerProcess();
const fake = fork(fileURLToPath(new URL('./fake-responses-process.mjs', import.meta.url)), [], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const [{ port }] = await once(fake, 'message');
setDefaultOpenAIClient(new OpenAI({ apiKey: 'sk-bench', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 }));
setTracingDisabled(false);

const obs = initObs({ baseUrl: conn.url, publicKey: conn.publicKey, secretKey: conn.secretKey, flushOnExit: false });
// OpenInference on its own provider, exporting to the same server, so neither sees the other's spans.
const oiProvider = new NodeTracerProvider({
  spanProcessors: [
    new BatchSpanProcessor(
      new OTLPTraceExporter({
        url: `${conn.url}/api/public/otel/v1/traces`,
        headers: { authorization: `Basic ${Buffer.from(`${conn.publicKey}:${conn.secretKey}`).toString('base64')}` },
      }),
      { maxQueueSize: 100_000, maxExportBatchSize: 512 },
    ),
  ],
});
const variants = [
  { name: 'agents SDK, no processor', processors: [], flush: async () => {} },
  { name: '@obs/openai-agents ObsTraceProcessor', processors: [new ObsTraceProcessor()], flush: () => obs.flush() },
  {
    name: 'OpenInference openai-agents 0.2.15',
    processors: [new OpenInferenceTracingProcessor({ tracerProvider: oiProvider })],
    flush: () => oiProvider.forceFlush(),
  },
];

/** Wall and CPU (user + system of this process) µs per turn, flush included. */
async function block(v) {
  setTraceProcessors(v.processors);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const result = await run(agent, QUESTION);
    if (result.finalOutput !== ANSWER) throw new Error(`${v.name}: unexpected answer ${result.finalOutput}`);
  }
  // The SDK hands spans to processors on promise chains: let them finish inside the block.
  await new Promise((r) => setImmediate(r));
  await v.flush();
  const cpu = process.cpuUsage(c0);
  return { wall: ((performance.now() - t0) * 1000) / (N * TURNS), cpu: (cpu.user + cpu.system) / (N * TURNS) };
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
await new Promise((r) => setTimeout(r, 200));
const after = await ask(obsServer, 'stats', 'spans');

const base = median(results.get(variants[0].name).cpu);
console.log(`\nagent run with one tool call (${TURNS} turns): ${N} runs per block, median of ${REPS} blocks\n`);
console.log('| Setup | CPU µs per turn | added CPU µs per turn | wall µs per turn |');
console.log('| --- | ---: | ---: | ---: |');
for (const v of variants) {
  const r = results.get(v.name);
  const cpu = median(r.cpu);
  console.log(
    `| ${v.name} | ${cpu.toFixed(0)} | ${v === variants[0] ? '-' : `+${(cpu - base).toFixed(0)}`} | ${median(r.wall).toFixed(0)} |`,
  );
}
// Every measured run must have arrived: obs 5 observations per run (workflow, agent, two
// generations, the tool), OpenInference one span per SDK span and its root (8 per run: it keeps
// the SDK's task and turn spans).
const spans = (scope) => (after.counts[scope] ?? 0) - (before.counts[scope] ?? 0);
console.log(
  `\nspans received in the measured blocks: obs ${spans('obs-sdk')}, OpenInference ${spans('@arizeai/openinference-instrumentation-openai-agents')} (${N * REPS} runs)`,
);

obsServer.send('close');
fake.send('close');
await obs.shutdown();
await oiProvider.shutdown();

// One setup of the agents bench in THIS process: `count` agent runs (a model call that asks for
// `weather`, the tool, a model call that answers: two turns) against the local Responses API (a
// child process), then the setup's flush, the local obs server in another child: what
// instructions.mjs runs under valgrind, so that only this process is counted. Setups, each as
// its docs set it up: 0 the SDK's tracing with no processor; 1 `@obs/openai-agents`
// (`observeOpenAIAgents()`); 2 OpenInference's `OpenInferenceTracingProcessor` on a registered
// tracer provider exporting OTLP to the same obs server.
//
//   node bench/agents/run-one.mjs <setup 0|1|2> <count>
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { run, setDefaultOpenAIClient, setTraceProcessors, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { ANSWER, agent, QUESTION } from './agent.mjs';

const [setup = '0', count = '100'] = process.argv.slice(2);
const here = (f) => fileURLToPath(new URL(f, import.meta.url));
// Batches by size only: under valgrind a timer would cut them at whatever a slowed-down second holds.
process.env.OBS_FLUSH_INTERVAL ??= '3600';
process.env.OTEL_BSP_MAX_QUEUE_SIZE ??= '1000000';

const server = fork(here('../lib/obs-server-process.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const fake = fork(here('./fake-responses-process.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const [[conn], [{ port }]] = await Promise.all([once(server, 'message'), once(fake, 'message')]);
setDefaultOpenAIClient(new OpenAI({ apiKey: 'sk-bench', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 }));
setTracingDisabled(false);
setTraceProcessors([]);

let flush = async () => {};
if (setup === '1') {
  const { initObs } = await import('@obs/core');
  const { observeOpenAIAgents } = await import('@obs/openai-agents');
  const obs = initObs({ baseUrl: conn.url, publicKey: conn.publicKey, secretKey: conn.secretKey, flushOnExit: false });
  observeOpenAIAgents();
  flush = () => obs.flush();
} else if (setup === '2') {
  const { OpenInferenceTracingProcessor } = await import('@arizeai/openinference-instrumentation-openai-agents');
  const { addTraceProcessor } = await import('@openai/agents');
  const { otlpProvider } = await import('../providers/otlp-provider.mjs');
  const { provider, flush: forceFlush } = await otlpProvider({ baseUrl: conn.url, publicKey: conn.publicKey, secretKey: conn.secretKey });
  addTraceProcessor(new OpenInferenceTracingProcessor({ tracerProvider: provider }));
  flush = forceFlush;
}

for (let i = 0; i < Number(count); i++) {
  const result = await run(agent, QUESTION);
  if (result.finalOutput !== ANSWER) throw new Error(`unexpected answer ${result.finalOutput}`);
}
await new Promise((r) => setImmediate(r));
await flush();
server.kill();
fake.kill();
process.exit(0);

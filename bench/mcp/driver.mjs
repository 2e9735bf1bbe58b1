// One setup of bench/mcp in its own process (OpenInference patches the SDK's transport classes in
// place, so setups cannot share one): an MCP client, its server as a stdio child (server.mjs), and
// blocks of calls on the parent's request over IPC. A block is `calls` sequential `tools/call`s under
// one active parent (an agent's turn: an obs observation, or an OpenTelemetry span for
// OpenInference, which propagates the active context and records no span of its own), then the
// setup's flush on both sides. It answers with wall and CPU µs per call, of this process and of the
// server's (from /proc, Linux).
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import * as clientStdioModule from '@modelcontextprotocol/sdk/client/stdio.js';

const setup = process.argv[2];
const conn = JSON.parse(process.argv[3]);
const env = {
  ...clientStdioModule.getDefaultEnvironment(),
  OBS_BASE_URL: conn.url,
  OBS_PUBLIC_KEY: conn.publicKey,
  OBS_SECRET_KEY: conn.secretKey,
  OTEL_BSP_MAX_QUEUE_SIZE: '100000',
};

let around = (fn) => fn();
let flush = async () => {};
let client = new Client({ name: 'bench-driver', version: '1.0.0' });
if (setup === 'obs') {
  const { initObs, startActiveObservation } = await import('@obs/core');
  const { observeMcpClient } = await import('@obs/mcp');
  const obs = initObs({ baseUrl: conn.url, publicKey: conn.publicKey, secretKey: conn.secretKey, flushOnExit: false });
  client = observeMcpClient(client);
  around = (fn) => startActiveObservation('agent-turn', fn);
  flush = () => obs.flush();
} else if (setup === 'openinference') {
  const { NodeTracerProvider } = await import('@opentelemetry/sdk-trace-node');
  const { MCPInstrumentation } = await import('@arizeai/openinference-instrumentation-mcp');
  const provider = new NodeTracerProvider();
  provider.register();
  new MCPInstrumentation().manuallyInstrument({ clientStdioModule });
  const tracer = provider.getTracer('bench');
  around = (fn) =>
    tracer.startActiveSpan('agent-turn', async (span) => {
      try {
        return await fn();
      } finally {
        span.end();
      }
    });
}

const transport = new clientStdioModule.StdioClientTransport({
  command: process.execPath,
  args: [new URL('./server.mjs', import.meta.url).pathname, setup],
  env,
});
await client.connect(transport);
const TICK_US = 1e6 / 100; // USER_HZ: /proc reports CPU time in 1/100 s on Linux
const serverCpu = () => {
  const fields = readFileSync(`/proc/${transport.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_US; // utime + stime
};

async function block(calls) {
  const s0 = serverCpu();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await around(async () => {
    for (let i = 0; i < calls; i++) {
      const result = await client.callTool({ name: 'lookup', arguments: { id: i } });
      if (result.content[0].text !== `record ${i}`) throw new Error(`${setup}: unexpected answer ${JSON.stringify(result)}`);
    }
  });
  await client.callTool({ name: 'flush', arguments: {} });
  await flush();
  const c = process.cpuUsage(c0);
  return {
    wall: ((performance.now() - t0) * 1000) / calls,
    client: (c.user + c.system) / calls,
    server: (serverCpu() - s0) / calls,
  };
}

process.on('message', async (msg) => {
  if (msg.block) process.send({ result: await block(msg.block) });
  else if (msg === 'close') {
    await client.close();
    await flush();
    process.exit(0);
  }
});
process.send({ ready: true });

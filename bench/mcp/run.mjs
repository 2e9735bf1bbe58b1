// CPU per MCP tool call that each instrumentation adds above an uninstrumented client and server
// (issue 47 item 7): a client and a stdio server in their own processes, for each setup: plain,
// @obs/mcp (observeMcpClient + observeMcpServer), and OpenInference's MCP instrumentation
// (@arizeai/openinference-instrumentation-mcp 0.2.33 on both transports). The setups' blocks are
// rotated per repetition; the median of the repetitions. Export to the local obs server (another
// process) is inside each block.
//
//   node bench/mcp/run.mjs [--calls 2000] [--reps 7]
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ask, median, startObsServerProcess } from '../lib/http-rounds.mjs';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '2000' }, reps: { type: 'string', default: '7' } } });
const N = Number(values.calls);
const REPS = Number(values.reps);

const { child: obsServer, conn } = await startObsServerProcess();
const SETUPS = [
  ['plain', 'MCP SDK 1.x, uninstrumented'],
  ['obs', '@obs/mcp observeMcpClient + observeMcpServer'],
  ['openinference', 'OpenInference MCP instrumentation 0.2.33'],
];
const drivers = await Promise.all(
  SETUPS.map(async ([setup, name]) => {
    const child = fork(fileURLToPath(new URL('./driver.mjs', import.meta.url)), [setup, JSON.stringify(conn)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await once(child, 'message');
    return { setup, name, child, wall: [], client: [], server: [] };
  }),
);
const block = async (d) => (await ask(d.child, { block: N }, 'result')).result;

for (const d of drivers) await block(d); // warm-up, not measured
const before = await ask(obsServer, 'stats', 'spans');
for (let rep = 0; rep < REPS; rep++) {
  for (let i = 0; i < drivers.length; i++) {
    const d = drivers[(i + rep) % drivers.length];
    const r = await block(d);
    d.wall.push(r.wall);
    d.client.push(r.client);
    d.server.push(r.server);
  }
}
const after = await ask(obsServer, 'stats', 'spans');

const base = drivers[0];
const total = (d) => median(d.client) + median(d.server);
console.log(`\ntools/call over stdio: ${N} sequential calls per block, median of ${REPS} blocks\n`);
console.log('| Setup | client CPU µs/call | server CPU µs/call | added CPU µs/call (both) | wall µs/call |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const d of drivers) {
  const added = d === base ? '-' : `+${(total(d) - total(base)).toFixed(0)}`;
  console.log(`| ${d.name} | ${median(d.client).toFixed(0)} | ${median(d.server).toFixed(0)} | ${added} | ${median(d.wall).toFixed(0)} |`);
}
// Every measured call must have arrived: a client and a server observation per call.
const calls = (after.names['tools/call lookup'] ?? 0) - (before.names['tools/call lookup'] ?? 0);
console.log(`\nobs observations of the measured calls received: ${calls} (expected ${2 * N * REPS})`);
console.log('OpenInference records no span of an MCP call: it carries the active context across (propagation only).');

for (const d of drivers) {
  const exited = once(d.child, 'exit');
  d.child.send('close');
  await exited;
}
obsServer.send('close');

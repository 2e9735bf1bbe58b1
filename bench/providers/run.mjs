// CPU per model SDK call that each wrapper adds above the unwrapped client (issue 46 item 10,
// issue 35 item 5): one provider's call against its stand-in API (./stand-in-process.mjs),
// through the plain SDK, through obs's wrapper and through the peers that wrap the same SDK, each
// setup in its own process (no peer's tracer provider, patch or global state touches another),
// all in ONE run, order rotated per repetition, median of the repetitions. A block is `calls`
// sequential calls, then the setup's flush: export (to the local obs server, or to the stand-in's
// sink for peers without an OTLP export) is inside the block, as the calls' cost.
//
//   node bench/providers/run.mjs --provider anthropic|openai|gemini|bedrock [--calls 2000] [--reps 7] [--stream]
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ask, median, startObsServerProcess } from '../lib/http-rounds.mjs';
import { PROVIDERS } from './providers.mjs';

const { values } = parseArgs({
  options: {
    provider: { type: 'string', default: 'anthropic' },
    calls: { type: 'string', default: '2000' },
    reps: { type: 'string', default: '7' },
    stream: { type: 'boolean', default: false },
  },
});
if (!(values.provider in PROVIDERS)) throw new Error(`--provider: one of ${Object.keys(PROVIDERS).join(', ')}`);
const N = Number(values.calls);
const REPS = Number(values.reps);
const STREAM = values.stream;
const provider = await import(`./${values.provider}.mjs`);
const here = (f) => fileURLToPath(new URL(f, import.meta.url));

const { child: obsServer, conn } = await startObsServerProcess();
const standIn = fork(here('./stand-in-process.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const [{ port, h2Port }] = await once(standIn, 'message');
const context = {
  standInURL: `http://127.0.0.1:${port}`,
  standInH2URL: `http://127.0.0.1:${h2Port}`,
  obs: { baseUrl: conn.url, publicKey: conn.publicKey, secretKey: conn.secretKey },
};

const setups = await Promise.all(
  provider.setups.map(async (setup, i) => {
    const child = fork(here('./setup-process.mjs'), [values.provider, String(i)], {
      env: { ...process.env, BENCH_CONTEXT: JSON.stringify(context), OBS_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await once(child, 'message');
    return { ...setup, child, cpu: [], wall: [] };
  }),
);
const block = (s) => ask(s.child, { block: N, stream: STREAM }, 'cpu');
// A wrong answer comes back as { error } (`ask` waits for `cpu`): the run stops there.
for (const s of setups) {
  s.child.on('message', (m) => {
    if (!m?.error) return;
    console.error(m.error);
    process.exit(1);
  });
}

for (const s of setups) await block(s); // warm-up, not measured
const before = await ask(obsServer, 'stats', 'spans');
const sinksBefore = (await ask(standIn, 'stats', 'sinks')).sinks;
for (let rep = 0; rep < REPS; rep++) {
  for (const s of setups.map((_, i) => setups[(i + rep) % setups.length])) {
    const r = await block(s);
    s.cpu.push(r.cpu);
    s.wall.push(r.wall);
  }
}
const after = await ask(obsServer, 'stats', 'spans');
const sinksAfter = (await ask(standIn, 'stats', 'sinks')).sinks;

const base = median(setups[0].cpu);
console.log(
  `\n${PROVIDERS[values.provider]}${STREAM ? ' (stream, read to the end)' : ''}: ${N} calls per block, median of ${REPS} blocks\n`,
);
console.log('| Setup | CPU µs per call | added CPU µs per call | wall µs per call | exported in the measured blocks |');
console.log('| --- | ---: | ---: | ---: | --- |');
for (const s of setups) {
  const cpu = median(s.cpu);
  const added = cpu - base;
  const exported = s.scope
    ? `${(after.counts[s.scope] ?? 0) - (before.counts[s.scope] ?? 0)} spans (expected ${N * REPS})`
    : s.sink
      ? `its collector got ${(sinksAfter[s.sink] ?? 0) - (sinksBefore[s.sink] ?? 0)} requests`
      : '-';
  console.log(
    `| ${s.name} | ${cpu.toFixed(0)} | ${s === setups[0] ? '-' : `${added >= 0 ? '+' : ''}${added.toFixed(0)}`} | ${median(s.wall).toFixed(0)} | ${exported} |`,
  );
}

for (const s of setups) s.child.send('close');
obsServer.send('close');
standIn.send('close');

// Overhead of @obs/nest on a hello-world Nest app: variants side by side in one run.
//
//   node bench/nest/run.mjs [--rounds 5] [--warmup 3] [--duration 10] [--connections 20] [--write]
//
// Each variant is a child process (app.mjs); autocannon runs here, in the parent, against
// 127.0.0.1 only. Variants are rotated each round; each variant's req/s is divided by the plain
// app's of the same round, and the median over rounds is reported. The local obs server runs in
// a third process (../lib/obs-server-process.mjs); bytes on the wire are the trace export bodies it received
// per request (compressed when the exporter compresses).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const here = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '3' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    write: { type: 'boolean', default: false },
    'node-args': { type: 'string', default: '' },
  },
});
const ROUNDS = Number(args.rounds);
const WARMUP = Number(args.warmup);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);

const VARIANTS = [
  { name: 'plain', label: 'plain Nest 12 + Express' },
  { name: 'interceptor', label: 'reference: plain + a global no-op interceptor (Nest\'s interceptor machinery alone)' },
  { name: 'obs', label: '+ ObsModule.forRoot() (root observation, input/output) + 1 @Observe span' },
  { name: 'obs-nocapture', label: '+ ObsModule.forRoot({ captureInput: false, captureOutput: false }) + 1 @Observe span' },
];
for (const v of VARIANTS) v.key ??= v.name;

const loadBefore = loadavg()[1];
const obsServer = fork(join(here, '../lib/obs-server-process.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const [server] = await once(obsServer, 'message');
const apps = new Map();
for (const v of VARIANTS) {
  const child = fork(join(here, 'app.mjs'), [v.name], {
    env: { ...process.env, OBS_BASE_URL: server.url, OBS_PUBLIC_KEY: server.publicKey, OBS_SECRET_KEY: server.secretKey },
    execArgv: [...args['node-args'].split(' ').filter(Boolean), ...(v.execArgv ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [ready] = await once(child, 'message');
  apps.set(v.key, { child, url: `http://127.0.0.1:${ready.port}` });
}

function ask(child, msg) {
  return new Promise((resolve) => {
    child.once('message', resolve);
    child.send(msg);
  });
}

function load(url, duration) {
  return autocannon({
    url: `${url}/chat/42`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'hello, how are you?' }),
    connections: CONNECTIONS,
    duration,
  });
}


const rows = new Map(VARIANTS.map((v) => [v.key, []]));
for (let round = 0; round < ROUNDS; round++) {
  const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length]);
  for (const v of order) {
    const { child, url } = apps.get(v.key);
    await load(url, WARMUP);
    await ask(child, 'flush');
    const before = await ask(obsServer, 'stats');
    const cpu0 = (await ask(child, 'cpu')).cpu;
    const result = await load(url, DURATION);
    await ask(child, 'flush'); // the export work of these requests counts
    const cpu1 = (await ask(child, 'cpu')).cpu;
    const after = await ask(obsServer, 'stats');
    const requests = result.requests.total;
    if (result.errors || result.non2xx) throw new Error(`${v.key}: ${result.errors} errors, ${result.non2xx} non-2xx`);
    rows.get(v.key).push({
      round,
      rps: requests / DURATION,
      cpuPerReq: (cpu1 - cpu0) / requests,
      bytesPerReq: (after.bytes - before.bytes) / requests,
      spansPerReq: (after.spans - before.spans) / requests,
    });
    console.error(`round ${round + 1}/${ROUNDS} ${v.key}: ${(requests / DURATION).toFixed(0)} req/s`);
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const plain = rows.get('plain');
const lines = [
  '| Variant | req/s ratio (median) | req/s (median) | CPU per request | added CPU per request | bytes on the wire per request |',
  '|---|---:|---:|---:|---:|---:|',
];
for (const v of VARIANTS) {
  const r = rows.get(v.key);
  const ratio = median(r.map((x, i) => x.rps / plain[i].rps));
  const cpu = median(r.map((x) => x.cpuPerReq));
  const added = median(r.map((x, i) => x.cpuPerReq - plain[i].cpuPerReq));
  const bytes = median(r.map((x) => x.bytesPerReq));
  const spans = median(r.map((x) => x.spansPerReq));
  lines.push(
    `| ${v.label} | ${ratio.toFixed(2)} | ${Math.round(median(r.map((x) => x.rps))).toLocaleString('en')} | ${Math.round(cpu)} µs | ${v.key === 'plain' ? '-' : `${added >= 0 ? '+' : ''}${Math.round(added)} µs`} | ${bytes === 0 ? '-' : `${Math.round(bytes).toLocaleString('en')} (${spans.toFixed(0)} spans)`} |`,
  );
}
const command = `node bench/nest/run.mjs --rounds ${ROUNDS} --warmup ${WARMUP} --duration ${DURATION} --connections ${CONNECTIONS}${args['node-args'] ? ` --node-args='${args['node-args']}'` : ''}`;
const table = lines.join('\n');
console.log(table);

if (args.write) {
  const doc = `# @obs/nest overhead

Hello-world Nest 12 app on the Express platform, \`POST /chat/:id\` with a JSON body, returning
\`{ answer }\` from a service method (the traced variants observe it with \`@Observe()\`: one
child span). ${CONNECTIONS} connections, ${WARMUP} s warm-up, ${DURATION} s measured, variants rotated for
${ROUNDS} rounds; each variant's req/s is divided by the plain app's in the same round, then the
median. CPU is the app process's user + system time (including exporting), per request. Bytes
are the OTLP export bodies the local obs server received per request. Each app is a child
process, the local obs server another; autocannon runs in the parent; 127.0.0.1 only.

Node ${process.version}, ${cpus().length} cores, ${new Date().toISOString().slice(0, 10)}. 5-minute load average
${loadBefore.toFixed(1)} before the run, ${loadavg()[1].toFixed(1)} after (the machine is shared: other processes ran
meanwhile). req/s ratios suffer most from that; CPU per request, measured in the app process,
is the steadier figure.

${table}

Command (from the repository root, after \`npm run build\`):

\`\`\`sh
${command} --write
\`\`\`
`;
  await writeFile(join(here, 'RESULTS.md'), doc);
}

for (const { child } of apps.values()) {
  child.send('close');
  await once(child, 'exit');
}
obsServer.send('close');
await once(obsServer, 'exit');

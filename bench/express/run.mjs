// Overhead of @obs/express on a hello-world Express 5 app, next to OpenTelemetry's own
// instrumentation, side by side in one run.
//
//   node bench/express/run.mjs [--rounds 5] [--warmup 3] [--duration 10] [--connections 20] [--write]
//
// Each variant is a child process (app.mjs), all started up front; the local obs server runs in
// its own child process (../lib/obs-server-process.mjs); autocannon runs here, in the parent, against
// 127.0.0.1 only. Variants are rotated each round; each variant's req/s is divided by the plain
// app's of the same round, and the median over rounds is reported.
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
    variants: { type: 'string', default: 'plain,obs,otel' },
    write: { type: 'boolean', default: false },
    'node-args': { type: 'string', default: '' },
  },
});
const ROUNDS = Number(args.rounds);
const WARMUP = Number(args.warmup);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);

const LABELS = {
  plain: 'plain Express 5',
  obs: '`app.use(obsMiddleware())` (root observation with input/output + the child span)',
  'obs-nocapture': '`obsMiddleware({ captureInput: false, captureOutput: false })`',
  'core-floor': 'minimal hand-made middleware on core `HttpObserver` (no output, no header)',
  otel: 'OpenTelemetry instrumentation-http + -express, BatchSpanProcessor, OTLP protobuf gzip',
};
const VARIANTS = args.variants.split(',').map((name) => ({ name, label: LABELS[name] ?? name }));
if (VARIANTS[0].name !== 'plain') throw new Error('the first variant must be plain (the baseline)');

function ask(child, msg, key) {
  return new Promise((resolve) => {
    const on = (reply) => {
      if (reply && key in reply) {
        child.off('message', on);
        resolve(reply);
      }
    };
    child.on('message', on);
    child.send(msg);
  });
}

const loadBefore = loadavg()[0];
const obsServer = fork(join(here, '../lib/obs-server-process.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const [conn] = await once(obsServer, 'message');

const apps = new Map();
for (const v of VARIANTS) {
  const child = fork(join(here, 'app.mjs'), [v.name], {
    env: { ...process.env, OBS_BASE_URL: conn.url, OBS_PUBLIC_KEY: conn.publicKey, OBS_SECRET_KEY: conn.secretKey },
    execArgv: args['node-args'].split(' ').filter(Boolean),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [ready] = await once(child, 'message');
  apps.set(v.name, { child, url: `http://127.0.0.1:${ready.port}` });
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

const rows = new Map(VARIANTS.map((v) => [v.name, []]));
for (let round = 0; round < ROUNDS; round++) {
  const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length]);
  for (const v of order) {
    const { child, url } = apps.get(v.name);
    await load(url, WARMUP);
    await ask(child, 'flush', 'flushed');
    await new Promise((r) => setTimeout(r, 300));
    const s0 = await ask(obsServer, 'stats', 'bytes');
    const cpu0 = (await ask(child, 'cpu', 'cpu')).cpu;
    const result = await load(url, DURATION);
    // The export work of these requests counts.
    await ask(child, 'flush', 'flushed');
    const cpu1 = (await ask(child, 'cpu', 'cpu')).cpu;
    await new Promise((r) => setTimeout(r, 300));
    const s1 = await ask(obsServer, 'stats', 'bytes');
    const requests = result.requests.total;
    if (result.errors || result.non2xx) throw new Error(`${v.name}: ${result.errors} errors, ${result.non2xx} non-2xx`);
    rows.get(v.name).push({
      round,
      rps: requests / DURATION,
      cpuPerReq: (cpu1 - cpu0) / requests,
      bytesPerReq: (s1.bytes - s0.bytes) / requests,
      spansPerReq: (s1.spans - s0.spans) / requests,
    });
    console.error(`round ${round + 1}/${ROUNDS} ${v.name}: ${(requests / DURATION).toFixed(0)} req/s, ${((cpu1 - cpu0) / requests).toFixed(0)} µs CPU/req, ${((s1.spans - s0.spans) / requests).toFixed(2)} spans/req`);
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
  const r = rows.get(v.name);
  const ratio = median(r.map((x, i) => x.rps / plain[i].rps));
  const ratios = r.map((x, i) => (x.rps / plain[i].rps).toFixed(2)).join(', ');
  const cpu = median(r.map((x) => x.cpuPerReq));
  const added = median(r.map((x, i) => x.cpuPerReq - plain[i].cpuPerReq));
  const bytes = median(r.map((x) => x.bytesPerReq));
  const spans = median(r.map((x) => x.spansPerReq));
  lines.push(
    `| ${v.label} | ${ratio.toFixed(2)}${v.name === 'plain' ? '' : ` (${ratios})`} | ${Math.round(median(r.map((x) => x.rps))).toLocaleString('en')} | ${Math.round(cpu)} µs | ${v.name === 'plain' ? '-' : `+${Math.round(added)} µs`} | ${v.name === 'plain' ? '-' : `${Math.round(bytes).toLocaleString('en')} (${spans.toFixed(0)} spans)`} |`,
  );
}
const command = `node bench/express/run.mjs --rounds ${ROUNDS} --warmup ${WARMUP} --duration ${DURATION} --connections ${CONNECTIONS}${args.variants !== 'plain,obs,otel' ? ` --variants ${args.variants}` : ''}${args['node-args'] ? ` --node-args='${args['node-args']}'` : ''}`;
const table = lines.join('\n');
console.log(table);

if (args.write) {
  const doc = `# @obs/express overhead

Hello-world Express 5 app (as in \`anchors.md\`): \`POST /chat/:id\` with \`express.json()\`, returning
\`{ answer }\` after creating one child span through the OpenTelemetry API. ${CONNECTIONS} connections,
${WARMUP} s warm-up, ${DURATION} s measured, variants rotated for ${ROUNDS} rounds; each variant's req/s is
divided by the plain app's in the same round, then the median (the per-round ratios are in
parentheses). CPU is the app process's user + system time per request, including exporting
(a flush after each measured period is counted). Bytes are the OTLP export bodies the local obs
server received per request. Each app is a child process; the local obs server is another
child process; autocannon runs in the parent; 127.0.0.1 only.

Node ${process.version}, ${cpus().length} cores, ${new Date().toISOString().slice(0, 10)}; load average ${loadBefore.toFixed(1)} before
the run and ${loadavg()[0].toFixed(1)} after it (other work on the machine widens the spread of the
req/s ratios; CPU per request, measured in the app process, is the steadier figure).

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

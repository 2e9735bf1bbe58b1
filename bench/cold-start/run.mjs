// Cold start, whole process: each script in ./scripts runs as its own `node` process, N rounds,
// every round running every variant once (the order rotated each round) so each variant pairs
// with the empty process of its own round. Per variant: median and range of CPU (user + system,
// from the child's own process.resourceUsage() at exit), wall (spawn to exit, in the runner),
// peak RSS and RSS at exit; "above" is the median of the per-round differences from `empty`
// (`express` from `express-plain`, `next` from `next-plain`, `fn-obs` from `fn-plain`; those
// also get a line above `empty`). Every exported span is counted at the receiving end: obs and
// OpenTelemetry on the local obs server, Sentry on an envelope sink here.
//
// A variant is a script's name, `+mode` runs it with COLD_EXPORT_MODE=mode (fn-obs+immediate).
// "first byte" is the spawn to the first byte the script writes to stdout (the functions' answer).
//
//   node bench/cold-start/run.mjs [--runs 15]
//     [--variants empty,otel-api,core,express-plain,express,next-plain,next,otel,sentry]
//     [--node-args '...'] [--marks]     (--marks adds the median ms and CPU ms at each mark)
//   node bench/cold-start/run.mjs --variants empty,fn-plain,fn-obs,fn-obs+immediate
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ask, median, startObsServerProcess } from '../lib/http-rounds.mjs';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    variants: { type: 'string', default: 'empty,otel-api,core,express-plain,express,next-plain,next,otel,sentry' },
    'node-args': { type: 'string', default: '' },
    marks: { type: 'boolean', default: false },
  },
});
const runs = Number(args.runs);
const variants = args.variants.split(',');
if (!variants.includes('empty')) variants.unshift('empty');
const nodeArgs = args['node-args'].split(' ').filter(Boolean);
/** Which variant each is measured against. */
const baselineOf = (v) => {
  const own = { express: 'express-plain', next: 'next-plain', 'fn-obs': 'fn-plain' }[v.split('+')[0]];
  return own && variants.includes(own) ? own : 'empty';
};
/** Spans each variant's process exports (obs and OpenTelemetry to the obs server, Sentry to the sink). */
const expectedSpans = { core: 1, express: 1, next: 1, otel: 1, sentry: 1, 'fn-obs': 2 };
const spansOf = (v) => expectedSpans[v.split('+')[0]] ?? 0;

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const { child: server, conn } = await startObsServerProcess();
const sentry = await startSentrySink();
const env = {
  ...process.env,
  OBS_BASE_URL: conn.url,
  OBS_PUBLIC_KEY: conn.publicKey,
  OBS_SECRET_KEY: conn.secretKey,
  SENTRY_DSN: `http://public@127.0.0.1:${sentry.port}/1`,
  COLD_START_REPORT_FD: '3',
  NEXT_RUNTIME: 'nodejs',
};

/** Runs one variant's script once; resolves with its report and wall time. */
async function runOnce(variant) {
  const [script, mode] = variant.split('+');
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [...nodeArgs, '--import', here('./report.mjs'), here(`./scripts/${script}.mjs`)], {
    env: mode ? { ...env, COLD_EXPORT_MODE: mode } : env,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let firstByteMs = Number.NaN;
  child.stdout.once('data', () => (firstByteMs = Number(process.hrtime.bigint() - started) / 1e6));
  child.stdout.resume();
  let report = '';
  let stderr = '';
  child.stdio[3].on('data', (d) => (report += d));
  child.stderr.on('data', (d) => (stderr += d));
  const closed = once(child, 'close'); // every pipe read to its end
  const [code] = await once(child, 'exit');
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  await closed;
  if (code !== 0 || !report) throw new Error(`${variant} exited with ${code}: ${stderr}`);
  return { ...JSON.parse(report), wallMs, firstByteMs, stderr };
}

const results = Object.fromEntries(variants.map((v) => [v, []]));
// One unmeasured round first: the file system cache, not the code, would decide the first one.
for (const v of variants) await runOnce(v);
const warmSpans = (await ask(server, 'stats', 'spans')).spans;
const warmEnvelopes = sentry.transactions;
for (let round = 0; round < runs; round++) {
  const order = variants.map((_, i) => variants[(i + round) % variants.length]);
  for (const v of order) results[v].push(await runOnce(v));
}

const stats = await ask(server, 'stats', 'spans');
const spansArrived = stats.spans - warmSpans;
const sentryArrived = sentry.transactions - warmEnvelopes;
server.send('close');
sentry.close();

const fmt = (x) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(1));
const range = (xs) => `${fmt(Math.min(...xs))}-${fmt(Math.max(...xs))}`;
const cell = (xs) => `${fmt(median(xs))} (${range(xs)})`;
const above = (v, key) => results[v].map((r, i) => r[key] - results[baselineOf(v)][i][key]);
const signed = (x) => `${x >= 0 ? '+' : ''}${fmt(x)}`;
const plusCell = (v, key) => {
  const d = above(v, key);
  return v === 'empty' || d.some(Number.isNaN) ? '-' : `${signed(median(d))} (${range(d)})`;
};

console.log(`cold start, ${runs} rounds, node ${process.version} ${nodeArgs.join(' ')}, ${cpus().length} cores,`);
console.log(
  `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}; ms, median (min-max); above = paired with ${'`empty`'}`,
);
console.log('(`express` with `express-plain`, `next` with `next-plain`, `fn-obs` with `fn-plain`), median of the per-round differences\n');
const firstBytes = variants.some((v) => results[v].every((r) => r.firstByteMs >= 0));
console.log(
  `| variant | CPU ms | CPU above | wall ms | wall above |${firstBytes ? ' first byte ms | above |' : ''} peak RSS MB | RSS at exit MB | above |`,
);
console.log(`| --- | --- | --- | --- | --- |${firstBytes ? ' --- | --- |' : ''} --- | --- | --- |`);
for (const v of variants) {
  const rs = results[v];
  const col = (key) => rs.map((r) => r[key]);
  console.log(
    `| ${v} | ${cell(col('cpuMs'))} | ${plusCell(v, 'cpuMs')} | ${cell(col('wallMs'))} | ${plusCell(v, 'wallMs')} | ` +
      (firstBytes
        ? rs.every((r) => r.firstByteMs >= 0)
          ? `${cell(col('firstByteMs'))} | ${plusCell(v, 'firstByteMs')} | `
          : '- | - | '
        : '') +
      `${fmt(median(col('maxRssMb')))} | ${fmt(median(col('rssMb')))} | ${plusCell(v, 'rssMb')} |`,
  );
}
const aboveEmpty = (v, key) => results[v].map((r, i) => r[key] - results.empty[i][key]);
const ownBaseline = variants.filter((v) => baselineOf(v) !== 'empty');
if (ownBaseline.length > 0) {
  const cells = ownBaseline.map(
    (v) => `${v} CPU ${signed(median(aboveEmpty(v, 'cpuMs')))} ms, RSS ${signed(median(aboveEmpty(v, 'rssMb')))} MB`,
  );
  console.log(`\nabove \`empty\` (paired): ${cells.join('; ')}`);
}
const otelAbove = variants.includes('otel') ? median(above('otel', 'cpuMs')) : undefined;
if (otelAbove !== undefined) {
  const ratios = variants
    .filter((v) => ['core', 'express', 'next', 'sentry'].includes(v))
    .map((v) => `${v} ${(median(above(v, 'cpuMs')) / otelAbove).toFixed(2)}x`);
  console.log(`\nCPU above, as a share of the OpenTelemetry stack's: ${ratios.join(', ')}`);
}
const wantSentry = variants.includes('sentry') ? runs : 0;
const wantObsServer = variants.reduce((n, v) => n + spansOf(v) * runs, 0) - wantSentry;
const scopes = Object.entries(stats.counts)
  .map(([k, n]) => `${k} ${n}`)
  .join(', ');
console.log(
  `spans (by scope, warm-up round included: ${scopes}): ${spansArrived} of ${wantObsServer} at the obs server (${wantObsServer - spansArrived} lost)` +
    (variants.includes('sentry') ? `, ${sentryArrived} of ${wantSentry} Sentry transactions` : ''),
);
if (args.marks) {
  console.log('\nmarks: median ms since process start / CPU ms at each mark');
  for (const v of variants) {
    const names = results[v][0].marks.map((m) => m[0]);
    const at = names.map(
      (n, i) => `${n} ${fmt(median(results[v].map((r) => r.marks[i][1])))}/${fmt(median(results[v].map((r) => r.marks[i][2])))}`,
    );
    console.log(`${v}: ${at.join(', ')}`);
  }
}
const warned = variants.filter((v) => results[v].some((r) => r.stderr.trim()));
for (const v of warned) console.log(`\n${v} stderr (first run): ${results[v][0].stderr.trim().split('\n').slice(0, 3).join(' | ')}`);
if (spansArrived !== wantObsServer || (variants.includes('sentry') && sentryArrived !== wantSentry)) process.exitCode = 1;

/** An HTTP server that takes Sentry envelopes and counts the transactions in them. */
async function startSentrySink() {
  const sink = { transactions: 0, port: 0, close: () => http.close() };
  const http = createServer((req, res) => {
    let body = '';
    req.setEncoding('latin1');
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      // An envelope: a header line, then an item header line and its payload per item.
      const lines = body.split('\n');
      for (let i = 1; i < lines.length; i += 2) if (lines[i].startsWith('{"type":"transaction"')) sink.transactions++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  sink.port = http.address().port;
  return sink;
}

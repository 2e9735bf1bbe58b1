// A Next.js route handler's first request after `next start`, cold: the app in ./next-app/plain
// (no tracing) against the same app with obs (./next-app/obs: registerObs() in
// instrumentation.js, the handler in withObs with one observation inside: two spans a request),
// with the default export mode and with `exportMode: 'immediate'`. Rounds rotate the variants;
// per run: spawn to port open ("ready"), the request's time to first byte and to its last byte,
// the server's CPU (user + system from /proc, 10 ms ticks) and RSS once answered, the spans'
// arrival at the local obs server, and SIGTERM to exit. Every span is counted (0 lost is the goal).
//
//   node bench/cold-start/next.mjs [--runs 15] [--variants plain,obs,obs+immediate] [--build]
//   (builds each app with `next build` the first time, or with --build)
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ask, median, startObsServerProcess } from '../lib/http-rounds.mjs';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    variants: { type: 'string', default: 'plain,obs,obs+immediate' },
    build: { type: 'boolean', default: false },
  },
});
const runs = Number(args.runs);
const variants = args.variants.split(',');
const SPANS_PER_REQUEST = 2;
const appDir = (app) => fileURLToPath(new URL(`./next-app/${app}/`, import.meta.url));
const NEXT_BIN = createRequire(import.meta.url).resolve('next/dist/bin/next');
const baseEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
delete baseEnv.NODE_OPTIONS;

for (const app of new Set(variants.map((v) => v.split('+')[0]))) {
  if (!args.build && existsSync(`${appDir(app)}.next/BUILD_ID`)) continue;
  console.error(`next build ${app} ...`);
  const r = spawnSync(process.execPath, [NEXT_BIN, 'build'], { cwd: appDir(app), env: baseEnv, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`next build of ${app} failed:\n${r.stdout}${r.stderr}`);
}

const { child: server, conn } = await startObsServerProcess();
const obsEnv = { OBS_BASE_URL: conn.url, OBS_PUBLIC_KEY: conn.publicKey, OBS_SECRET_KEY: conn.secretKey };

/** A port nothing listens on right now. */
async function freePort() {
  const srv = net.createServer().listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address();
  srv.close();
  await once(srv, 'close');
  return port;
}

/** Resolves once a TCP connection to the port succeeds (no HTTP request: nothing warms up). */
async function portOpen(port, child) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited ${child.exitCode}`);
    const ok = await new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => s.end(() => resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** POST /api/chat: resolves with the time to the response's head and to its end, and its trace id. */
function post(port) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(
      { host: '127.0.0.1', port, path: '/api/chat', method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        const ttfb = performance.now() - t0;
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => {
          if (body !== '{"answer":"Lisbon"}') reject(new Error(`unexpected answer ${res.statusCode} ${body}`));
          else resolve({ ttfb, total: performance.now() - t0, traceId: res.headers['x-obs-trace-id'] });
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ question: 'Capital of Portugal?' }));
  });
}

/** The pids of a process and its descendants. */
function tree(pid) {
  const out = [pid];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const kids = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    if (kids) for (const k of kids.split(' ')) out.push(...tree(Number(k)));
  }
  return out;
}

/** CPU ms (user + system) and RSS MB of a process tree, from /proc. */
function usage(pid) {
  let ticks = 0;
  let rssKb = 0;
  for (const p of tree(pid)) {
    const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    rssKb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))[1]);
  }
  return { cpuMs: ticks * 10, rssMb: rssKb / 1024 };
}

async function spansNow() {
  return (await ask(server, 'stats', 'spans')).spans;
}

async function runOnce(variant) {
  const [app, mode] = variant.split('+');
  const port = await freePort();
  const before = await spansNow();
  const t0 = performance.now();
  const child = spawn(process.execPath, [NEXT_BIN, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: appDir(app),
    env: { ...baseEnv, ...(app === 'obs' ? obsEnv : {}), ...(mode ? { COLD_EXPORT_MODE: mode } : {}) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = once(child, 'exit');
  await portOpen(port, child);
  const readyMs = performance.now() - t0;
  const res = await post(port);
  const firstByteMs = performance.now() - t0 - (res.total - res.ttfb);
  const { cpuMs, rssMb } = usage(child.pid);
  const expected = app === 'obs' ? SPANS_PER_REQUEST : 0;
  let spansMs = Number.NaN;
  for (const until = performance.now() + 10_000; expected > 0 && performance.now() < until; ) {
    if ((await spansNow()) - before >= expected) {
      spansMs = performance.now() - t0;
      break;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const termAt = performance.now();
  child.kill('SIGTERM');
  await exited;
  const exitMs = performance.now() - termAt;
  const arrived = (await spansNow()) - before;
  return { readyMs, ttfbMs: res.ttfb, firstByteMs, cpuMs, rssMb, spansMs, exitMs, arrived, expected, stderr };
}

const results = Object.fromEntries(variants.map((v) => [v, []]));
for (const v of variants) {
  console.error('warm', v);
  await runOnce(v);
} // unmeasured: the file system cache
for (let round = 0; round < runs; round++) {
  for (const v of variants.map((_, i) => variants[(i + round) % variants.length])) results[v].push(await runOnce(v));
}
server.send('close');

const fmt = (x) => (Number.isNaN(x) ? '-' : Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(1));
const cell = (xs) => `${fmt(median(xs))} (${fmt(Math.min(...xs))}-${fmt(Math.max(...xs))})`;
const base = variants[0];
const diff = (v, key) => {
  if (v === base) return '-';
  const d = results[v].map((r, i) => r[key] - results[base][i][key]);
  return `${median(d) >= 0 ? '+' : ''}${fmt(median(d))}`;
};
console.log(`next start, first request, ${runs} rounds, node ${process.version}, ${cpus().length} cores,`);
console.log(
  `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}; ms, median (min-max); [+x]: median of per-round differences from ${base}\n`,
);
console.log('| variant | ready | first byte | TTFB of the request | server CPU | RSS MB | spans in | exit on SIGTERM | spans |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const v of variants) {
  const rs = results[v];
  const col = (k) => rs.map((r) => r[k]);
  const arrived = rs.reduce((n, r) => n + r.arrived, 0);
  const expected = rs.reduce((n, r) => n + r.expected, 0);
  console.log(
    `| ${v} | ${cell(col('readyMs'))} [${diff(v, 'readyMs')}] | ${cell(col('firstByteMs'))} [${diff(v, 'firstByteMs')}] | ` +
      `${cell(col('ttfbMs'))} [${diff(v, 'ttfbMs')}] | ${cell(col('cpuMs'))} [${diff(v, 'cpuMs')}] | ${fmt(median(col('rssMb')))} [${diff(v, 'rssMb')}] | ` +
      `${expected ? cell(col('spansMs')) : '-'} | ${cell(col('exitMs'))} | ${expected ? `${arrived}/${expected}` : '-'} |`,
  );
}
const lost = variants.reduce((n, v) => n + results[v].reduce((m, r) => m + r.expected - r.arrived, 0), 0);
console.log(`\nspans lost: ${lost}`);
for (const v of variants) {
  const s = results[v].find((r) => r.stderr.trim())?.stderr.trim();
  if (s) console.log(`${v} stderr (a run): ${s.split('\n').slice(0, 3).join(' | ')}`);
}
if (lost !== 0) process.exitCode = 1;

// Shared by the benchmarks: the local obs server process and IPC with it (`ask`, `median`), the
// apps under load (`startApp`, `loadChat`), and for the HTTP benchmarks rounds of autocannon load
// with the variant order rotated (`runRounds`: per round and variant req/s, app CPU per request,
// export included, export bytes and spans per request), their Markdown table (`resultsTable`) and
// the run.mjs of each HTTP bench (`runHttpBench`).
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** Sends `msg` to a child and resolves with its next reply that has `key`. */
export function ask(child, msg, key) {
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

/** Median of numbers. */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Forks the local obs server process (./obs-server-process.mjs); resolves with it and its { url, publicKey, secretKey }. */
export async function startObsServerProcess() {
  const child = fork(fileURLToPath(new URL('./obs-server-process.mjs', import.meta.url)), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [conn] = await once(child, 'message');
  return { child, conn };
}

/** Forks `appScript <variant>` exporting to the obs server `conn`; resolves once it sent its {port}. */
export async function startApp(appScript, variant, conn, execArgv = []) {
  const child = fork(appScript, [variant], {
    env: { ...process.env, OBS_BASE_URL: conn.url, OBS_PUBLIC_KEY: conn.publicKey, OBS_SECRET_KEY: conn.secretKey },
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [ready] = await once(child, 'message');
  return { child, port: ready.port };
}

/** autocannon load on the apps' `POST /chat/42`; `opts`: connections and duration (s) or amount. */
export const loadChat = (port, opts) =>
  autocannon({
    url: `http://127.0.0.1:${port}/chat/42`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'hello, how are you?' }),
    connections: 20,
    ...opts,
  });

/**
 * The command line shared by the HTTP benches: --rounds, --warmup, --duration (seconds),
 * --connections, --variants (comma-separated, `plain` first; `<variant>+acf` runs a variant on
 * Node.js's AsyncContextFrame), --node-args (for every app process).
 */
export function parseRoundArgs(defaultVariants) {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '5' },
      warmup: { type: 'string', default: '3' },
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '20' },
      variants: { type: 'string', default: defaultVariants },
      'node-args': { type: 'string', default: '' },
    },
  });
  return {
    ...values,
    rounds: Number(values.rounds),
    warmup: Number(values.warmup),
    duration: Number(values.duration),
    connections: Number(values.connections),
    nodeArgs: values['node-args'].split(' ').filter(Boolean),
  };
}

// `--experimental-async-context-frame` on Node 22 (the default from Node 24): AsyncLocalStorage
// without an async hook per promise.
const ACF = '--experimental-async-context-frame';

/**
 * An HTTP bench's whole run (`run.mjs`): parses the command line, runs the rounds of `appScript`'s
 * variants and prints the machine, the command that reproduces the run and the results table.
 */
export async function runHttpBench(script, appScript, defaultVariants) {
  const args = parseRoundArgs(defaultVariants);
  const variants = args.variants
    .split(',')
    .map((name) => (name.endsWith('+acf') ? { name, app: name.slice(0, -4), execArgv: [ACF] } : { name }));
  if (variants[0].name !== 'plain') throw new Error('the first variant must be plain (the baseline)');
  const loadBefore = loadavg()[0];
  const rows = await runRounds({ ...args, appScript, variants });
  const nodeArgs = args['node-args'] ? ` --node-args='${args['node-args']}'` : '';
  console.log(
    `Node ${process.version}, ${cpus().length} cores, ${new Date().toISOString().slice(0, 16)}Z, ` +
      `load average ${loadBefore.toFixed(1)} -> ${loadavg()[0].toFixed(1)}\n` +
      `node ${script} --rounds ${args.rounds} --warmup ${args.warmup} --duration ${args.duration} ` +
      `--connections ${args.connections} --variants ${args.variants}${nodeArgs}\n`,
  );
  console.log(resultsTable(variants, rows));
}

/**
 * Starts the obs server process and each variant's app (`appScript <variant>`; the app answers
 * IPC 'flush' -> {flushed}, 'cpu' -> {cpu} and first sends {port}), runs the rounds, stops all.
 * `variants`: [{ name, app?, execArgv? }] (`app`: the variant argument of the app script, default `name`), the first is the baseline. Resolves with name -> row per round.
 */
export async function runRounds({ appScript, variants, rounds, warmup, duration, connections, nodeArgs = [], log = console.error }) {
  const { child: obsServer, conn } = await startObsServerProcess();
  const apps = new Map();
  for (const v of variants) apps.set(v.name, await startApp(appScript, v.app ?? v.name, conn, [...nodeArgs, ...(v.execArgv ?? [])]));
  const rows = new Map(variants.map((v) => [v.name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = variants.map((_, i) => variants[(i + round) % variants.length]);
    for (const { name } of order) {
      const { child, port } = apps.get(name);
      await loadChat(port, { connections, duration: warmup });
      await ask(child, 'flush', 'flushed');
      await new Promise((r) => setTimeout(r, 300));
      const s0 = await ask(obsServer, 'stats', 'bytes');
      const cpu0 = (await ask(child, 'cpu', 'cpu')).cpu;
      const result = await loadChat(port, { connections, duration });
      await ask(child, 'flush', 'flushed'); // the export work of these requests counts
      const cpu1 = (await ask(child, 'cpu', 'cpu')).cpu;
      await new Promise((r) => setTimeout(r, 300));
      const s1 = await ask(obsServer, 'stats', 'bytes');
      const requests = result.requests.total;
      if (result.errors || result.non2xx) throw new Error(`${name}: ${result.errors} errors, ${result.non2xx} non-2xx`);
      const row = {
        round,
        rps: requests / duration,
        cpuPerReq: (cpu1 - cpu0) / requests,
        bytesPerReq: (s1.bytes - s0.bytes) / requests,
        spansPerReq: (s1.spans - s0.spans) / requests,
      };
      rows.get(name).push(row);
      log(
        `round ${round + 1}/${rounds} ${name}: ${row.rps.toFixed(0)} req/s, ${row.cpuPerReq.toFixed(0)} µs CPU/req, ${row.spansPerReq.toFixed(2)} spans/req`,
      );
    }
  }
  for (const { child } of apps.values()) child.kill();
  obsServer.send('close');
  return rows;
}

/**
 * The Markdown results table of `runRounds`: one line per variant ({ name }), req/s ratios to the
 * first (baseline) variant of the same round (median, then the per-round ratios).
 */
export function resultsTable(variants, rows) {
  const base = rows.get(variants[0].name);
  const lines = [
    '| variant | req/s ratio (median, per round) | req/s | CPU/request | added CPU/request | bytes on the wire/request |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const [i, v] of variants.entries()) {
    const r = rows.get(v.name);
    const ratios = r.map((x, j) => x.rps / base[j].rps);
    const cpu = median(r.map((x) => x.cpuPerReq));
    const added = median(r.map((x, j) => x.cpuPerReq - base[j].cpuPerReq));
    const bytes = median(r.map((x) => x.bytesPerReq));
    const spans = median(r.map((x) => x.spansPerReq));
    lines.push(
      `| ${v.name} | ${median(ratios).toFixed(2)}${i === 0 ? '' : ` (${ratios.map((x) => x.toFixed(2)).join(', ')})`} | ${Math.round(median(r.map((x) => x.rps))).toLocaleString('en')} | ${Math.round(cpu)} µs | ${i === 0 ? '-' : `${added >= 0 ? '+' : ''}${Math.round(added)} µs`} | ${bytes === 0 ? '-' : `${Math.round(bytes).toLocaleString('en')} (${spans.toFixed(0)} spans)`} |`,
    );
  }
  return lines.join('\n');
}

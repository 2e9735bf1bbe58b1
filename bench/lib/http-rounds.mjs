// Shared by the HTTP benchmarks: the local obs server and one app process per variant, then
// rounds of autocannon load with the variant order rotated; per round and variant: req/s, app CPU
// per request (export included), export bytes and spans per request.
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

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

/**
 * Starts the obs server process and each variant's app (`appScript <variant>`; the app answers
 * IPC 'flush' -> {flushed}, 'cpu' -> {cpu} and first sends {port}), runs the rounds, stops all.
 * `variants`: [{ name, key?, execArgv? }], the first is the baseline.
 */
export async function runRounds({ appScript, variants, rounds, warmup, duration, connections, nodeArgs = [], log = console.error }) {
  const obsServer = fork(fileURLToPath(new URL('./obs-server-process.mjs', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [conn] = await once(obsServer, 'message');
  const apps = new Map();
  for (const v of variants) {
    const child = fork(appScript, [v.name], {
      env: { ...process.env, OBS_BASE_URL: conn.url, OBS_PUBLIC_KEY: conn.publicKey, OBS_SECRET_KEY: conn.secretKey },
      execArgv: [...nodeArgs, ...(v.execArgv ?? [])],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const [ready] = await once(child, 'message');
    apps.set(v.key ?? v.name, { child, url: `http://127.0.0.1:${ready.port}` });
  }
  const load = (url, seconds) =>
    autocannon({
      url: `${url}/chat/42`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hello, how are you?' }),
      connections,
      duration: seconds,
    });
  const rows = new Map(variants.map((v) => [v.key ?? v.name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = variants.map((_, i) => variants[(i + round) % variants.length]);
    for (const v of order) {
      const key = v.key ?? v.name;
      const { child, url } = apps.get(key);
      await load(url, warmup);
      await ask(child, 'flush', 'flushed');
      await new Promise((r) => setTimeout(r, 300));
      const s0 = await ask(obsServer, 'stats', 'bytes');
      const cpu0 = (await ask(child, 'cpu', 'cpu')).cpu;
      const result = await load(url, duration);
      await ask(child, 'flush', 'flushed'); // the export work of these requests counts
      const cpu1 = (await ask(child, 'cpu', 'cpu')).cpu;
      await new Promise((r) => setTimeout(r, 300));
      const s1 = await ask(obsServer, 'stats', 'bytes');
      const requests = result.requests.total;
      if (result.errors || result.non2xx) throw new Error(`${key}: ${result.errors} errors, ${result.non2xx} non-2xx`);
      const row = {
        round,
        rps: requests / duration,
        cpuPerReq: (cpu1 - cpu0) / requests,
        bytesPerReq: (s1.bytes - s0.bytes) / requests,
        spansPerReq: (s1.spans - s0.spans) / requests,
      };
      rows.get(key).push(row);
      log(`round ${round + 1}/${rounds} ${key}: ${row.rps.toFixed(0)} req/s, ${row.cpuPerReq.toFixed(0)} µs CPU/req, ${row.spansPerReq.toFixed(2)} spans/req`);
    }
  }
  for (const { child } of apps.values()) child.kill();
  obsServer.send('close');
  return rows;
}

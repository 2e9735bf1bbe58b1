// CPU per request of each variant of app.mjs, measured by the app process itself over a fixed
// number of requests (less sensitive to a busy machine than req/s; for quick comparisons while
// optimising: run.mjs is the benchmark).
//
//   node bench/express/cpu.mjs [requests=20000] [repetitions=3] [variants=plain,obs,otel]
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = dirname(fileURLToPath(import.meta.url));
const [amount = '20000', reps = '3', variants = 'plain,obs,otel'] = process.argv.slice(2);
const ask = (child, msg, key) =>
  new Promise((resolve) => {
    const on = (reply) => {
      if (reply && key in reply) {
        child.off('message', on);
        resolve(reply);
      }
    };
    child.on('message', on);
    child.send(msg);
  });
const obsServer = fork(join(here, '../lib/obs-server-process.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const [conn] = await once(obsServer, 'message');
const apps = {};
for (const v of variants.split(',')) {
  const child = fork(join(here, 'app.mjs'), [v], {
    env: { ...process.env, OBS_BASE_URL: conn.url, OBS_PUBLIC_KEY: conn.publicKey, OBS_SECRET_KEY: conn.secretKey },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [ready] = await once(child, 'message');
  apps[v] = { child, port: ready.port, cpu: [] };
}
const load = (port, n) =>
  autocannon({
    url: `http://127.0.0.1:${port}/chat/42`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'hello, how are you?' }),
    connections: 20,
    amount: n,
  });
for (const a of Object.values(apps)) await load(a.port, 5000);
for (let r = 0; r < Number(reps); r++) {
  for (const [v, a] of Object.entries(apps)) {
    await ask(a.child, 'flush', 'flushed');
    const c0 = (await ask(a.child, 'cpu', 'cpu')).cpu;
    const res = await load(a.port, Number(amount));
    await ask(a.child, 'flush', 'flushed');
    const c1 = (await ask(a.child, 'cpu', 'cpu')).cpu;
    a.cpu.push((c1 - c0) / res.requests.total);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const base = median(apps.plain?.cpu ?? [0]);
for (const [v, a] of Object.entries(apps)) console.log(`${v.padEnd(6)} ${median(a.cpu).toFixed(1)} µs CPU/req (+${(median(a.cpu) - base).toFixed(1)})  [${a.cpu.map((x) => x.toFixed(0)).join(', ')}]`);
for (const a of Object.values(apps)) {
  a.child.send('close');
  await once(a.child, 'exit');
}
obsServer.send('close');

// CPU per request of each variant of app.mjs, measured by the app process itself over a fixed
// number of requests (less sensitive to a busy machine than req/s; for quick comparisons while
// optimising: run.mjs is the benchmark).
//
//   node bench/express/cpu.mjs [requests=20000] [rounds=3] [variants=plain,obs,otel] (plain must be among them)
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ask, loadChat, median, startApp, startObsServerProcess } from '../lib/http-rounds.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const [amount = '20000', reps = '3', variants = 'plain,obs,otel'] = process.argv.slice(2);
const { child: obsServer, conn } = await startObsServerProcess();
const apps = {};
for (const v of variants.split(',')) apps[v] = { ...(await startApp(join(here, 'app.mjs'), v, conn)), cpu: [] };
const load = (port, amount) => loadChat(port, { amount });
for (const a of Object.values(apps)) await load(a.port, 5000);
const entries = Object.entries(apps);
for (let r = 0; r < Number(reps); r++) {
  // Rotated, so no variant always runs first or right after the same neighbour.
  for (const [, a] of entries.map((_, i) => entries[(i + r) % entries.length])) {
    await ask(a.child, 'flush', 'flushed');
    const c0 = (await ask(a.child, 'cpu', 'cpu')).cpu;
    const res = await load(a.port, Number(amount));
    await ask(a.child, 'flush', 'flushed');
    const c1 = (await ask(a.child, 'cpu', 'cpu')).cpu;
    a.cpu.push((c1 - c0) / res.requests.total);
  }
}
const base = median(apps.plain?.cpu ?? [0]);
for (const [v, a] of Object.entries(apps))
  console.log(
    `${v.padEnd(13)} ${median(a.cpu).toFixed(1)} µs CPU/req (+${(median(a.cpu) - base).toFixed(1)}; per round above that round's plain: ${a.cpu
      .map((x, i) => (x - apps.plain.cpu[i]).toFixed(0))
      .join(', ')})  [${a.cpu.map((x) => x.toFixed(0)).join(', ')}]`,
  );
for (const a of Object.values(apps)) {
  a.child.send('close');
  await once(a.child, 'exit');
}
obsServer.send('close');

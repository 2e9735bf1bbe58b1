// CPU per request of each variant of app.mjs with requests injected in-process
// (light-my-request) instead of sent over HTTP by a load generator: no client process or
// loopback network competing for the 2 cores, so the figures are steadier than cpu.mjs's and
// suit before/after comparisons of the request path. Spans are still exported over HTTP to the
// local obs server (another process), and counted there.
//
//   node bench/express/inproc.mjs [requests=20000] [rounds=7] [variants=plain,als,otel-root,obs,obs-identify,otel]
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ask, median, startApp, startObsServerProcess } from '../lib/http-rounds.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const [amount = '20000', reps = '7', variants = 'plain,als,otel-root,obs,obs-identify,otel'] = process.argv.slice(2);
const names = variants.split(',');
if (!names.includes('plain')) throw new Error('plain must be among the variants');
const { child: obsServer, conn } = await startObsServerProcess();
const apps = {};
for (const v of names) apps[v] = { ...(await startApp(join(here, 'app.mjs'), v, conn)), cpu: [] };
const run = async (a, count) => {
  const { injected } = await ask(a.child, { inject: count }, 'injected');
  await ask(a.child, 'flush', 'flushed');
  return injected;
};
for (const a of Object.values(apps)) await run(a, 5000); // warm-up
const spans0 = (await ask(obsServer, 'stats', 'spans')).spans;
const entries = Object.entries(apps);
for (let r = 0; r < Number(reps); r++) {
  // Rotated, so no variant always runs first or right after the same neighbour.
  for (const [, a] of entries.map((_, i) => entries[(i + r) % entries.length])) a.cpu.push(await run(a, Number(amount)));
}
const spans = (await ask(obsServer, 'stats', 'spans')).spans - spans0;
console.log(`Node ${process.version}, ${amount} injected requests x ${reps} rounds; CPU µs per request (the app process)`);
const base = median(apps.plain.cpu);
for (const [v, a] of entries) {
  const above = a.cpu.map((x, i) => x - apps.plain.cpu[i]);
  console.log(
    `${v.padEnd(13)} ${median(a.cpu).toFixed(1)} µs CPU/req (+${median(above).toFixed(1)} median above plain; rounds ${above.map((x) => x.toFixed(0)).join(', ')})`,
  );
}
console.log(`the obs server received ${spans} spans during the rounds`);
for (const a of Object.values(apps)) {
  a.child.send('close');
  await once(a.child, 'exit');
}
obsServer.send('close');

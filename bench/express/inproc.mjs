// CPU per request of each variant of app.mjs with requests injected in-process
// (light-my-request) instead of sent over HTTP by a load generator: no client process or
// loopback network competing for the 2 cores, so the figures are steadier than cpu.mjs's and
// suit before/after comparisons of the request path. Spans are still exported over HTTP to the
// local obs server (another process), and counted there.
//
//   node bench/express/inproc.mjs [requests=20000] [rounds=7] [variants=plain,als,otel-noio,light-root,obs,obs-identify] [processes=1]
//
// (`otel`, OpenTelemetry's http instrumentation, makes no server span for injected requests: time
// it with cpu.mjs.)
//
// With processes > 1, the whole set of variants is started that many times, one set after the
// other, each set with its own rotated rounds: V8 settles each process into its own tiering, and
// the inline-cache share of a request moves by up to ~20 µs between processes of one variant
// (issue 16's seventh pass), which more rounds in one process do not average out.
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ask, median, startApp, startObsServerProcess } from '../lib/http-rounds.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const [amount = '20000', reps = '7', variants = 'plain,als,otel-noio,light-root,obs,obs-identify', processes = '1'] = process.argv.slice(2);
const names = variants.split(',');
if (!names.includes('plain')) throw new Error('plain must be among the variants');
const { child: obsServer, conn } = await startObsServerProcess();
const run = async (a, count) => {
  const { injected } = await ask(a.child, { inject: count }, 'injected');
  await ask(a.child, 'flush', 'flushed');
  return injected;
};
/** Per variant, one entry per process set: its rounds' CPU µs per request. */
const cpu = Object.fromEntries(names.map((v) => [v, []]));
const spans0 = (await ask(obsServer, 'stats', 'spans')).spans;
for (let p = 0; p < Number(processes); p++) {
  const apps = {};
  for (const v of names) apps[v] = { ...(await startApp(join(here, 'app.mjs'), v, conn)), cpu: [] };
  for (const a of Object.values(apps)) await run(a, 5000); // warm-up
  const entries = Object.entries(apps);
  for (let r = 0; r < Number(reps); r++) {
    // Rotated, so no variant always runs first or right after the same neighbour.
    for (const [, a] of entries.map((_, i) => entries[(i + r) % entries.length])) a.cpu.push(await run(a, Number(amount)));
  }
  for (const [v, a] of entries) {
    cpu[v].push(a.cpu);
    a.child.send('close');
    await once(a.child, 'exit');
  }
}
const spans = (await ask(obsServer, 'stats', 'spans')).spans - spans0;
/** `+1.5` / `-0.7`: a difference with its sign. */
const signed = (x) => `${x < 0 ? '' : '+'}${x.toFixed(1)}`;
const sets = Number(processes) > 1 ? `, ${processes} processes per variant` : '';
console.log(`Node ${process.version}, ${amount} injected requests x ${reps} rounds${sets}; CPU µs per request (the app process)`);
for (const v of names) {
  // Paired with plain's round in the same process set.
  const above = cpu[v].map((rounds, p) => rounds.map((x, i) => x - cpu.plain[p][i]));
  const all = above.flat();
  const perProcess = above.map((xs) => signed(median(xs))).join(', ');
  console.log(
    `${v.padEnd(14)} ${median(cpu[v].flat()).toFixed(1)} µs CPU/req (${signed(median(all))} median above plain; ` +
      (Number(processes) > 1 ? `by process ${perProcess}; ` : '') +
      `rounds ${all.map((x) => x.toFixed(0)).join(', ')})`,
  );
}
console.log(`the obs server received ${spans} spans during the rounds`);
obsServer.send('close');

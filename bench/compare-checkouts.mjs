// CPU per request of the same bench variants built from two checkouts (this one and another, e.g.
// `git worktree add ../base <commit>` built with `npx turbo run build`), side by side in one run,
// rotated over the rounds: does a change make the request path cheaper or dearer?
//
//   node bench/compare-checkouts.mjs <other-checkout> [express|nest] [requests=5000] [rounds=7] [variants=obs]
//
// Prints, per checkout and variant, the median CPU µs per request and its added cost above the
// `plain` variant of this checkout, with every round's figure, and the median of the per-round
// differences between the checkouts. With INJECT=1 (Express only) the requests are injected
// in-process (app.mjs's `inject`, light-my-request) instead of sent by autocannon: steadier, so
// many short rounds (e.g. 2000 x 25) suit small changes; copy this checkout's bench/express/app.mjs
// into the other one if it predates `inject`.
import { once } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ask, loadChat, median, startApp, startObsServerProcess } from './lib/http-rounds.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const [other, bench = 'express', amount = '5000', rounds = '7', variants = 'obs'] = process.argv.slice(2);
if (!other) throw new Error('usage: node bench/compare-checkouts.mjs <other-checkout> [express|nest] [requests] [rounds] [variants]');
const { child: obsServer, conn } = await startObsServerProcess();
const script = (root) => join(root, 'bench', bench, 'app.mjs');
const apps = [{ name: 'this plain', ...(await startApp(script(join(here, '..')), 'plain', conn)), cpu: [] }];
for (const v of variants.split(',')) {
  apps.push({ name: `this ${v}`, ...(await startApp(script(join(here, '..')), v, conn)), cpu: [] });
  apps.push({ name: `other ${v}`, ...(await startApp(script(resolve(other)), v, conn)), cpu: [] });
}
const inject = process.env.INJECT === '1';
/** CPU µs per request of `count` requests to one app. */
async function measure(a, count) {
  await ask(a.child, 'flush', 'flushed');
  if (inject) {
    const { injected } = await ask(a.child, { inject: count }, 'injected');
    await ask(a.child, 'flush', 'flushed');
    return injected;
  }
  const c0 = (await ask(a.child, 'cpu', 'cpu')).cpu;
  const res = await loadChat(a.port, { amount: count });
  await ask(a.child, 'flush', 'flushed');
  const c1 = (await ask(a.child, 'cpu', 'cpu')).cpu;
  return (c1 - c0) / res.requests.total;
}
for (const a of apps) await measure(a, 3000);
for (let r = 0; r < Number(rounds); r++) {
  // Rotate the order so no checkout always runs first (or right after the warm one).
  const order = apps.map((_, i) => apps[(i + r) % apps.length]);
  for (const a of order) a.cpu.push(await measure(a, Number(amount)));
}
const base = median(apps[0].cpu);
console.log(
  `${bench}${inject ? ' (injected in-process)' : ''}: ${amount} requests x ${rounds} rotated rounds, Node ${process.version}; other = ${resolve(other)}`,
);
for (const a of apps) {
  const m = median(a.cpu);
  console.log(
    `${a.name.padEnd(22)} ${m.toFixed(1)} µs CPU/req (+${(m - base).toFixed(1)})  [${a.cpu.map((x) => x.toFixed(0)).join(', ')}]`,
  );
}
for (const v of variants.split(',')) {
  const mine = apps.find((a) => a.name === `this ${v}`).cpu;
  const theirs = apps.find((a) => a.name === `other ${v}`).cpu;
  console.log(`${v}: this - other, median of the per-round differences: ${median(mine.map((x, i) => x - theirs[i])).toFixed(1)} µs`);
}
for (const a of apps) {
  a.child.send('close');
  await once(a.child, 'exit');
}
obsServer.send('close');

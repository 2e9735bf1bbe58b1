// CPU per request of the same bench variants built from two checkouts (this one and another, e.g.
// `git worktree add ../base <commit>` built with `npx turbo run build`), side by side in one run,
// rotated over the rounds: does a change make the request path cheaper or dearer?
//
//   node bench/compare-checkouts.mjs <other-checkout> [express|nest] [requests=5000] [rounds=7] [variants=obs]
//
// Prints, per checkout and variant, the median CPU µs per request and its added cost above the
// `plain` variant of this checkout, with every round's figure.
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
for (const a of apps) await loadChat(a.port, { amount: 3000 });
for (let r = 0; r < Number(rounds); r++) {
  // Rotate the order so no checkout always runs first (or right after the warm one).
  const order = apps.map((_, i) => apps[(i + r) % apps.length]);
  for (const a of order) {
    await ask(a.child, 'flush', 'flushed');
    const c0 = (await ask(a.child, 'cpu', 'cpu')).cpu;
    const res = await loadChat(a.port, { amount: Number(amount) });
    await ask(a.child, 'flush', 'flushed');
    const c1 = (await ask(a.child, 'cpu', 'cpu')).cpu;
    a.cpu.push((c1 - c0) / res.requests.total);
  }
}
const base = median(apps[0].cpu);
console.log(`${bench}: ${amount} requests x ${rounds} rotated rounds, Node ${process.version}; other = ${resolve(other)}`);
for (const a of apps) {
  const m = median(a.cpu);
  console.log(
    `${a.name.padEnd(22)} ${m.toFixed(1)} µs CPU/req (+${(m - base).toFixed(1)})  [${a.cpu.map((x) => x.toFixed(0)).join(', ')}]`,
  );
}
for (const a of apps) {
  a.child.send('close');
  await once(a.child, 'exit');
}
obsServer.send('close');

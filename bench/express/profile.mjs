// Profiles one variant of app.mjs under a fixed number of requests, for finding where the
// overhead goes (not a benchmark: run.mjs is).
//
//   node bench/express/profile.mjs <variant> [requests=40000] [profile dir=/tmp/obs-express-prof]
//   (APP_NODE_ARGS="--some-flag" passes Node.js flags to the app process)
//
// Writes a V8 .cpuprofile of the app process (node --cpu-prof) into the directory.
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadChat, startApp, startObsServerProcess } from '../lib/http-rounds.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const [variant = 'obs', amount = '40000', dir = '/tmp/obs-express-prof'] = process.argv.slice(2);
const { child: obsServer, conn } = await startObsServerProcess();
const { child, port } = await startApp(join(here, 'app.mjs'), variant, conn, [
  ...(process.env.APP_NODE_ARGS ?? '').split(' ').filter(Boolean),
  '--cpu-prof',
  `--cpu-prof-dir=${dir}`,
  `--cpu-prof-name=${variant}.cpuprofile`,
]);
const result = await loadChat(port, { amount: Number(amount) });
console.log(`${variant}: ${result.requests.total} requests, ${Math.round(result.requests.average)} req/s`);
child.send('close');
await once(child, 'exit');
obsServer.send('close');
await once(obsServer, 'exit');

// Profiles one variant of app.mjs under a fixed number of requests, for finding where the
// overhead goes (not a benchmark: run.mjs is).
//
//   node bench/express/profile.mjs <variant> [requests=40000] [profile dir=/tmp/obs-express-prof]
//
// Writes a V8 .cpuprofile of the app process (node --cpu-prof) into the directory.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = dirname(fileURLToPath(import.meta.url));
const [variant = 'obs', amount = '40000', dir = '/tmp/obs-express-prof'] = process.argv.slice(2);
const obsServer = fork(join(here, '../lib/obs-server-process.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const [conn] = await once(obsServer, 'message');
const child = fork(join(here, 'app.mjs'), [variant], {
  env: { ...process.env, OBS_BASE_URL: conn.url, OBS_PUBLIC_KEY: conn.publicKey, OBS_SECRET_KEY: conn.secretKey },
  execArgv: ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${variant}.cpuprofile`],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const [ready] = await once(child, 'message');
const result = await autocannon({
  url: `http://127.0.0.1:${ready.port}/chat/42`,
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ message: 'hello, how are you?' }),
  connections: 20,
  amount: Number(amount),
});
console.log(`${variant}: ${result.requests.total} requests, ${Math.round(result.requests.average)} req/s`);
child.send('close');
await once(child, 'exit');
obsServer.send('close');
await once(obsServer, 'exit');

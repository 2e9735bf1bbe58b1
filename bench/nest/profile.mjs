// CPU profile of one variant of the Nest bench app under load, for finding hot spots:
//   node bench/nest/profile.mjs obs [/tmp/prof-obs]
// Writes a .cpuprofile (open it in Chrome DevTools) into the directory given (default /tmp/prof-<variant>).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = dirname(fileURLToPath(import.meta.url));
const variant = process.argv[2] ?? 'obs';
const dir = process.argv[3] ?? `/tmp/prof-${variant}`;
const obsServer = fork(join(here, '../lib/obs-server-process.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const [server] = await once(obsServer, 'message');
const child = fork(join(here, 'app.mjs'), [variant], {
  env: { ...process.env, OBS_BASE_URL: server.url, OBS_PUBLIC_KEY: server.publicKey, OBS_SECRET_KEY: server.secretKey },
  execArgv: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const [ready] = await once(child, 'message');
const opts = {
  url: `http://127.0.0.1:${ready.port}/chat/42`,
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ message: 'hello, how are you?' }),
  connections: 20,
};
await autocannon({ ...opts, duration: 3 });
const result = await autocannon({ ...opts, duration: 8 });
console.log(`${variant}: ${result.requests.total} requests measured; profile in ${dir}`);
child.send('close');
await once(child, 'exit');
obsServer.send('close');
await once(obsServer, 'exit');

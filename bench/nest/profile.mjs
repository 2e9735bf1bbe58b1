// CPU profile of one variant of the Nest bench app under load, for finding hot spots:
//   node bench/nest/profile.mjs obs [/tmp/prof-obs]
// Writes a .cpuprofile (open it in Chrome DevTools) into the directory given (default /tmp/prof-<variant>).
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadChat, startApp, startObsServerProcess } from '../lib/http-rounds.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const variant = process.argv[2] ?? 'obs';
const dir = process.argv[3] ?? `/tmp/prof-${variant}`;
const { child: obsServer, conn } = await startObsServerProcess();
const { child, port } = await startApp(join(here, 'app.mjs'), variant, conn, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
await loadChat(port, { duration: 3 });
const result = await loadChat(port, { duration: 8 });
console.log(`${variant}: ${result.requests.total} requests measured; profile in ${dir}`);
child.send('close');
await once(child, 'exit');
obsServer.send('close');
await once(obsServer, 'exit');

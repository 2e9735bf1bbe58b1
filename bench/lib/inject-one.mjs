// One variant of a bench app (express/app.mjs, nest/app.mjs) in THIS process with `count`
// requests injected (light-my-request), the local obs server in a child process: what
// instruction-count.mjs runs under valgrind, so that only the app is counted. The app speaks the
// benches' IPC protocol (`{ port }` when ready, `{ inject }` -> `{ injected }`, 'flush' ->
// `{ flushed }`); here its parent is this module.
//
//   node bench/lib/inject-one.mjs <app script> <variant> <count>
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [appScript, variant = 'plain', count = '2000'] = process.argv.slice(2);
const server = fork(fileURLToPath(new URL('./obs-server-process.mjs', import.meta.url)), [], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const [conn] = await once(server, 'message');
Object.assign(process.env, { OBS_BASE_URL: conn.url, OBS_PUBLIC_KEY: conn.publicKey, OBS_SECRET_KEY: conn.secretKey });
// Batches by size only (512 spans, as at full speed): under valgrind the 1 s timer would cut them
// at whatever a slowed-down second holds, and the count would depend on the machine's load.
process.env.OBS_FLUSH_INTERVAL ??= '3600';

const answers = [];
let check = () => {};
process.send = (msg) => {
  answers.push(msg);
  check();
};
/** Resolves with the first answer that has `key`. */
const answer = (key) =>
  new Promise((done) => {
    check = () => {
      const found = answers.find((m) => m?.[key] !== undefined);
      if (found) done(found[key]);
    };
    check();
  });
process.argv[2] = variant;
await import(pathToFileURL(resolve(appScript)).href);
await answer('port');
process.emit('message', { inject: Number(count) });
const perRequest = await answer('injected');
process.emit('message', 'flush');
await answer('flushed');
console.error(`${variant}: ${count} requests, ${perRequest.toFixed(1)} µs CPU/request`);
server.send('close');
await once(server, 'exit');
process.exit(0);

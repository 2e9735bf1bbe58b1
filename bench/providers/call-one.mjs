// One setup of one provider in THIS process: `count` sequential calls against the stand-in API (a
// child process), then the setup's flush, the local obs server in another child: what
// instructions.mjs runs under valgrind, so that only the calling process is counted. The provider
// and the call's kind come from the environment (BENCH_PROVIDER, BENCH_STREAM=1), the setup by its
// index in the provider file's `setups`.
//
//   BENCH_PROVIDER=anthropic node bench/providers/call-one.mjs <setup index> <count>
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const [index = '0', count = '500'] = process.argv.slice(2);
const provider = await import(`./${process.env.BENCH_PROVIDER ?? 'anthropic'}.mjs`);
const stream = process.env.BENCH_STREAM === '1';
const here = (f) => fileURLToPath(new URL(f, import.meta.url));
// Batches by size only: under valgrind a timer would cut them at whatever a slowed-down second holds.
process.env.OBS_FLUSH_INTERVAL ??= '3600';
process.env.OTEL_BSP_MAX_QUEUE_SIZE ??= '1000000';

const server = fork(here('../lib/obs-server-process.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const standIn = fork(here('./stand-in-process.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const [[conn], [{ port, h2Port }]] = await Promise.all([once(server, 'message'), once(standIn, 'message')]);
const ctx = {
  standInURL: `http://127.0.0.1:${port}`,
  standInH2URL: `http://127.0.0.1:${h2Port}`,
  obs: { baseUrl: conn.url, publicKey: conn.publicKey, secretKey: conn.secretKey },
};
const { client, flush } = await provider.setups[Number(index)].create(ctx);
for (let i = 0; i < Number(count); i++) {
  const text = await provider.call(client, stream);
  if (text !== provider.answer) throw new Error(`unexpected answer ${JSON.stringify(text)}`);
}
await flush();
server.kill();
standIn.kill();
process.exit(0);

// Demo of @obs/react-router: builds the example if needed (react-router build), serves it with
// react-router-serve on a free port, sends a page request, a form action and a streamed resource
// route, prints the answers, then stops the server. Reads OBS_BASE_URL, OBS_PUBLIC_KEY and
// OBS_SECRET_KEY from the environment.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(dir, 'package.json'));
const bin = (pkg) => path.join(path.dirname(require.resolve(`${pkg}/package.json`)), 'bin.cjs');

function node(args, env, stdio) {
  return spawn(process.execPath, args, { cwd: dir, env: { ...process.env, ...env }, stdio });
}

if (!existsSync(path.join(dir, 'build', 'server', 'index.js'))) {
  console.log('building the example (react-router build) ...');
  const code = await new Promise((resolve) => node([bin('@react-router/dev'), 'build'], {}, 'inherit').on('exit', resolve));
  if (code !== 0) process.exit(code ?? 1);
}

const srv = net.createServer();
await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve));
const { port } = srv.address();
await new Promise((resolve) => srv.close(resolve));
const base = `http://127.0.0.1:${port}`;
// Spans leave every 100 ms, so the demo's traces are on the server before it stops the app.
const server = node(
  [bin('@react-router/serve'), 'build/server/index.js'],
  { PORT: String(port), HOST: '127.0.0.1', OBS_FLUSH_INTERVAL: '0.1', NODE_ENV: 'production' },
  ['ignore', 'ignore', 'inherit'],
);
const exited = new Promise((resolve) => server.on('exit', resolve));
// Probed with a built asset: served as a static file, it never reaches React Router (which logs every 404).
const asset = `/assets/${readdirSync(path.join(dir, 'build', 'client', 'assets'))[0]}`;
for (let i = 0; ; i++) {
  if (
    await fetch(`${base}${asset}`).then(
      () => true,
      () => false,
    )
  )
    break;
  if (i > 300 || server.exitCode !== null) throw new Error('react-router-serve did not come up');
  await new Promise((r) => setTimeout(r, 100));
}

// 1. A page: the root and chat loaders run, the model call inside the chat loader.
const page = await fetch(`${base}/chat/42`, { headers: { 'x-user-id': 'demo-user' } });
console.log(`GET /chat/42 -> ${page.status}, ${(await page.text()).length} bytes of HTML`);

// 2. A form action, then the loaders again.
const action = await fetch(`${base}/chat/42`, { method: 'POST', body: new URLSearchParams({ message: 'What is the capital of France?' }) });
console.log(`POST /chat/42 -> ${action.status}`);
await action.text();

// 3. A resource route streaming server-sent events.
const stream = await fetch(`${base}/api/stream`);
console.log(`GET /api/stream -> ${stream.status}: ${JSON.stringify(await stream.text())}`);

await new Promise((r) => setTimeout(r, 400));
server.kill('SIGTERM');
await exited;
process.exit(0);

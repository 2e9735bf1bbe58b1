// Demo of @obs/next: builds the example if needed, starts it with `next start` on a free port, sends a
// few requests, prints the answers, then stops the server (each request's spans were flushed after its
// response). Reads OBS_BASE_URL, OBS_PUBLIC_KEY and OBS_SECRET_KEY from the environment.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const nextBin = createRequire(path.join(dir, 'package.json')).resolve('next/dist/bin/next');
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };

function next(args, stdio) {
  return spawn(process.execPath, [nextBin, ...args], { cwd: dir, env, stdio });
}

async function freePort() {
  const srv = net.createServer();
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address();
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

if (!existsSync(path.join(dir, '.next', 'BUILD_ID'))) {
  console.log('building the example (next build) ...');
  const code = await new Promise((resolve) => next(['build'], 'inherit').on('exit', resolve));
  if (code !== 0) process.exit(code ?? 1);
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = next(['start', '-p', String(port), '-H', '127.0.0.1'], ['ignore', 'pipe', 'inherit']);
const exited = new Promise((resolve) => server.on('exit', resolve));
for (let i = 0; ; i++) {
  if (
    await fetch(`${base}/robots.txt`).then(
      () => true,
      () => false,
    )
  )
    break;
  if (i > 300 || server.exitCode !== null) throw new Error('next start did not come up');
  await new Promise((r) => setTimeout(r, 100));
}

const trace = (res) => res.headers.get('x-obs-trace-id');

// 1. Route handler calling a LangChain fake chat model through @obs/langchain.
const chat = await fetch(`${base}/api/chat/conv-1`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-user-id': 'demo-user' },
  body: JSON.stringify({ message: 'What is the capital of France?' }),
});
console.log(`POST /api/chat/conv-1 -> ${chat.status} trace ${trace(chat)}`, await chat.json());

// 2. Streaming route: the client reads chunks as they come; the root's output is the whole text.
const stream = await fetch(`${base}/api/stream?topic=Lyon`);
let chunks = 0;
let text = '';
const decoder = new TextDecoder();
for await (const chunk of stream.body) {
  chunks++;
  text += decoder.decode(chunk, { stream: true });
}
console.log(`GET /api/stream -> ${stream.status} trace ${trace(stream)}, ${chunks} chunks: ${JSON.stringify(text.trim())}`);

// 3. Edge runtime route.
const edge = await fetch(`${base}/api/edge?text=${encodeURIComponent('Is it raining in Paris?')}`);
console.log(`GET /api/edge -> ${edge.status} trace ${trace(edge)}`, await edge.json());

// Spans were flushed after each response (after()); give the last flush a moment, then stop cleanly.
await new Promise((r) => setTimeout(r, 300));
server.kill('SIGTERM');
await exited;
process.exit(0);

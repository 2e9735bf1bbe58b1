// The main demo: starts the local obs server, runs each example app against it (real HTTP,
// real OTLP), and prints every trace the server decoded.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatTrace, startObsServer } from '@obs/local-server';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const examples = (wanted.length ? wanted : ['express', 'nest', 'next', 'experiment']).filter((name) =>
  existsSync(join(root, 'examples', name, 'demo.mjs')),
);

const server = await startObsServer({ quiet: true });
console.log(`local obs server on ${server.url} (keys ${server.publicKey} / ${server.secretKey})\n`);

let failed = 0;
for (const name of examples) {
  console.log(`── example: ${name} ${'─'.repeat(50 - name.length)}`);
  const before = new Set(server.traceIds());
  const code = await run(join(root, 'examples', name), {
    OBS_BASE_URL: server.url,
    OBS_PUBLIC_KEY: server.publicKey,
    OBS_SECRET_KEY: server.secretKey,
  });
  if (code !== 0) {
    failed++;
    console.error(`example ${name} exited with ${code}`);
  }
  const traces = server.traceIds().filter((id) => !before.has(id));
  console.log(`\n${traces.length} trace(s) received from ${name}:\n`);
  for (const id of traces) console.log(formatTrace(server.spansByTrace(id)), '\n');
}
await server.close();
process.exit(failed ? 1 : 0);

function run(cwd, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['demo.mjs'], { cwd, env: { ...process.env, ...env }, stdio: 'inherit' });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

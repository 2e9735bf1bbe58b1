// The main demo: starts the local obs server (with its trace viewer), runs each example app
// against it (real HTTP, real OTLP), and prints every trace the server decoded.
// `npm run demo -- --keep` keeps the server and its viewer up afterwards (Ctrl+C to stop).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatTrace, startObsServer } from '@obs/local-server';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const examples = (
  wanted.length ? wanted : ['express', 'fastify', 'hono', 'lambda', 'nest', 'next', 'react-router', 'experiment', 'mcp']
).filter((name) => existsSync(join(root, 'examples', name, 'demo.mjs')));

const keep = process.argv.includes('--keep');
// Port 3100 when it is free, so the viewer's address stays the same between runs.
const server = await startObsServer({ quiet: true, port: 3100 }).catch(() => startObsServer({ quiet: true }));
console.log(`local obs server on ${server.url} (keys ${server.publicKey} / ${server.secretKey})`);
console.log(`trace viewer: ${server.url}/  (open it while the demo runs; \`npm run demo -- --keep\` keeps it up)\n`);

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
if (keep) {
  console.log(`\ntrace viewer still up at ${server.url}/ with ${server.traceIds().length} traces (Ctrl+C to stop)`);
  process.once('SIGINT', () => server.close().then(() => process.exit(failed ? 1 : 0)));
} else {
  console.log(`\ntrace viewer was at ${server.url}/ (run \`npm run demo -- --keep\` to keep it up)`);
  await server.close();
  process.exit(failed ? 1 : 0);
}

function run(cwd, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['demo.mjs'], { cwd, env: { ...process.env, ...env }, stdio: 'inherit' });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

// Overhead of @obs/nest on a hello-world Nest app: variants side by side in one run.
//
//   node bench/nest/run.mjs [--rounds 5] [--warmup 3] [--duration 10] [--connections 20] [--write]
//
// Each variant is a child process (app.mjs); autocannon runs here, in the parent, against
// 127.0.0.1 only. Variants are rotated each round; each variant's req/s is divided by the plain
// app's of the same round, and the median over rounds is reported. The local obs server runs in
// a third process (../lib/obs-server-process.mjs); bytes on the wire are the trace export bodies it received
// per request (compressed when the exporter compresses).
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseRoundArgs, resultsTable, roundsCommand, runRounds } from '../lib/http-rounds.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = parseRoundArgs();
const { rounds: ROUNDS, warmup: WARMUP, duration: DURATION, connections: CONNECTIONS } = args;

const VARIANTS = [
  { name: 'plain', label: 'plain Nest 12 + Express' },
  { name: 'interceptor', label: "reference: plain + a global no-op interceptor (Nest's interceptor machinery alone)" },
  { name: 'interceptor-als', label: 'reference: interceptor + AsyncLocalStorage.run() per request (following a request across await)' },
  { name: 'obs', label: '+ ObsModule.forRoot() (root observation, input/output) + 1 @Observe span' },
  { name: 'obs-nocapture', label: '+ ObsModule.forRoot({ captureInput: false, captureOutput: false }) + 1 @Observe span' },
];

const loadBefore = loadavg()[1];
const rows = await runRounds({ ...args, appScript: join(here, 'app.mjs'), variants: VARIANTS });

const command = roundsCommand('bench/nest/run.mjs', args);
const table = resultsTable(VARIANTS, rows);
console.log(table);

if (args.write) {
  const doc = `# @obs/nest overhead

Hello-world Nest 12 app on the Express platform, \`POST /chat/:id\` with a JSON body, returning
\`{ answer }\` from a service method (the traced variants observe it with \`@Observe()\`: one
child span). ${CONNECTIONS} connections, ${WARMUP} s warm-up, ${DURATION} s measured, variants rotated for
${ROUNDS} rounds; each variant's req/s is divided by the plain app's in the same round, then the
median (the per-round ratios are in parentheses). CPU is the app process's user + system time (including exporting), per request. Bytes
are the OTLP export bodies the local obs server received per request. Each app is a child
process, the local obs server another; autocannon runs in the parent; 127.0.0.1 only.

Node ${process.version}, ${cpus().length} cores, ${new Date().toISOString().slice(0, 10)}. 5-minute load average
${loadBefore.toFixed(1)} before the run, ${loadavg()[1].toFixed(1)} after (the machine is shared: other processes ran
meanwhile). req/s ratios suffer most from that; CPU per request, measured in the app process,
is the steadier figure.

${table}

Command (from the repository root, after \`npm run build\`):

\`\`\`sh
${command} --write
\`\`\`
`;
  await writeFile(join(here, 'RESULTS.md'), doc);
}

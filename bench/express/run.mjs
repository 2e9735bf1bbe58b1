// Overhead of @obs/express on a hello-world Express 5 app, next to OpenTelemetry's own
// instrumentation, side by side in one run.
//
//   node bench/express/run.mjs [--rounds 5] [--warmup 3] [--duration 10] [--connections 20] [--write]
//
// Each variant is a child process (app.mjs), all started up front; the local obs server runs in
// its own child process (../lib/obs-server-process.mjs); autocannon runs here, in the parent, against
// 127.0.0.1 only. Variants are rotated each round; each variant's req/s is divided by the plain
// app's of the same round, and the median over rounds is reported.
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseRoundArgs, resultsTable, roundsCommand, runRounds } from '../lib/http-rounds.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const NOTES_MARKER = '<!-- notes: kept by run.mjs --write -->';
const args = parseRoundArgs({ variants: { type: 'string', default: 'plain,obs,otel' } });
const { rounds: ROUNDS, warmup: WARMUP, duration: DURATION, connections: CONNECTIONS } = args;

const LABELS = {
  plain: 'plain Express 5',
  obs: '`app.use(obsMiddleware())` (root observation with input/output + the child span)',
  'obs-identify':
    '`obsMiddleware({ identify })` returning user and session: the full request trace (input, output, identify, child, exported)',
  'obs-noexport': '`obsMiddleware()` with an exporter that drops the spans (everything but the export)',
  'obs-nocapture': '`obsMiddleware({ captureInput: false, captureOutput: false })`',
  'core-floor': 'minimal hand-made middleware on core `HttpObserver` (no output, no header)',
  otel: 'OpenTelemetry instrumentation-http + -express, BatchSpanProcessor, OTLP protobuf gzip',
  'otel-root':
    "one bare OpenTelemetry SDK root span per request, active in the handlers, + the child span, both exported by core's processor; no obs request code (no input, output, naming, identify)",
  'otel-noio':
    'the same two spans as bare OpenTelemetry SDK spans with no span processor: no export, no obs code (issue 16\'s "bare SDK span pair without IO")',
  als: '`AsyncLocalStorage.run()` per request and nothing else: the floor of any tracer that follows a request across `await`',
};
// `<variant>+acf`: the same app on Node.js's AsyncContextFrame (`--experimental-async-context-frame`
// on Node 22, the default from Node 24), where AsyncLocalStorage costs no async hook per promise.
const ACF = '--experimental-async-context-frame';
const VARIANTS = args.variants.split(',').map((name) => {
  const app = name.endsWith('+acf') ? name.slice(0, -4) : name;
  const label = LABELS[app] ?? app;
  return app === name ? { name, label } : { name, app, execArgv: [ACF], label: `${label}, on AsyncContextFrame (\`${ACF}\`)` };
});
if (VARIANTS[0].name !== 'plain') throw new Error('the first variant must be plain (the baseline)');

const loadBefore = loadavg()[0];
const rows = await runRounds({ ...args, appScript: join(here, 'app.mjs'), variants: VARIANTS });

const command = roundsCommand('bench/express/run.mjs', args, args.variants !== 'plain,obs,otel' ? ` --variants ${args.variants}` : '');
const table = resultsTable(VARIANTS, rows);
console.log(table);

if (args.write) {
  const doc = `# @obs/express overhead

Hello-world Express 5 app (as in \`anchors.md\`): \`POST /chat/:id\` with \`express.json()\`, returning
\`{ answer }\` after creating one child span through the OpenTelemetry API. ${CONNECTIONS} connections,
${WARMUP} s warm-up, ${DURATION} s measured, variants rotated for ${ROUNDS} rounds; each variant's req/s is
divided by the plain app's in the same round, then the median (the per-round ratios are in
parentheses). CPU is the app process's user + system time per request, including exporting
(a flush after each measured period is counted). Bytes are the OTLP export bodies the local obs
server received per request. Each app is a child process; the local obs server is another
child process; autocannon runs in the parent; 127.0.0.1 only.

Node ${process.version}, ${cpus().length} cores, ${new Date().toISOString().slice(0, 10)}; load average ${loadBefore.toFixed(1)} before
the run and ${loadavg()[0].toFixed(1)} after it (other work on the machine widens the spread of the
req/s ratios; CPU per request, measured in the app process, is the steadier figure).

${table}

Command (from the repository root, after \`npm run build\`):

\`\`\`sh
${command} --write
\`\`\`
`;
  // Hand-written notes below the marker (earlier comparisons, analysis) survive a rewrite.
  const previous = await readFile(join(here, 'RESULTS.md'), 'utf8').catch(() => '');
  const at = previous.indexOf(NOTES_MARKER);
  await writeFile(join(here, 'RESULTS.md'), at === -1 ? doc : `${doc}\n${previous.slice(at)}`);
}

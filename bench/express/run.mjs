// Overhead of @obs/express on a hello-world Express 5 app, next to OpenTelemetry's own
// instrumentation, side by side in one run: req/s kept against plain Express, CPU per request,
// bytes on the wire.
//
//   node bench/express/run.mjs [--rounds 5] [--warmup 3] [--duration 10] [--connections 20]
//     [--variants plain,als,otel-root,obs,obs-identify,otel] [--node-args '...']
//
// Each variant is a child process (app.mjs; the variants are listed there), all started up front;
// the local obs server runs in its own child process (../lib/obs-server-process.mjs); autocannon
// runs here, in the parent, against 127.0.0.1 only. Variants are rotated each round; each
// variant's req/s is divided by the plain app's of the same round, and the median over rounds is
// reported. `<variant>+acf` runs a variant on Node.js's AsyncContextFrame.
import { fileURLToPath } from 'node:url';
import { runHttpBench } from '../lib/http-rounds.mjs';

await runHttpBench(
  'bench/express/run.mjs',
  fileURLToPath(new URL('./app.mjs', import.meta.url)),
  'plain,als,otel-root,obs,obs-identify,otel',
);

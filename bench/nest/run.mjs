// Overhead of @obs/nest on a hello-world Nest app, next to Nest's own no-op interceptor, side by
// side in one run: req/s kept against plain Nest, CPU per request, bytes on the wire.
//
//   node bench/nest/run.mjs [--rounds 5] [--warmup 3] [--duration 10] [--connections 20]
//     [--variants plain,interceptor,interceptor-als,obs,obs-nocapture] [--node-args '...']
//
// Each variant is a child process (app.mjs; the variants are listed there); autocannon runs here,
// in the parent, against 127.0.0.1 only; the local obs server runs in a third process
// (../lib/obs-server-process.mjs). Variants are rotated each round; each variant's req/s is
// divided by the plain app's of the same round, and the median over rounds is reported. Bytes on
// the wire are the trace export bodies the server received per request.
import { fileURLToPath } from 'node:url';
import { runHttpBench } from '../lib/http-rounds.mjs';

await runHttpBench(
  'bench/nest/run.mjs',
  fileURLToPath(new URL('./app.mjs', import.meta.url)),
  'plain,interceptor,interceptor-als,obs,obs-nocapture',
);

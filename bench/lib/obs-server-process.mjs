// The local obs server for the benchmarks, in its own process so decoding the exports runs neither
// in the load generator nor on the measured thread. Counts what it receives and answers over IPC:
// 'stats' -> { bytes, spans, counts, names } (trace export body bytes, spans, spans per scope and
// per span name), 'close'.
import { startObsServer } from '@obs/local-server';

let bytes = 0;
let spans = 0;
const counts = new Map();
const names = new Map();
const server = await startObsServer({
  quiet: true,
  onSpans(batch) {
    spans += batch.length;
    for (const s of batch) {
      counts.set(s.scope.name, (counts.get(s.scope.name) ?? 0) + 1);
      names.set(s.name, (names.get(s.name) ?? 0) + 1);
    }
  },
});
const drain = () => {
  for (const r of server.requests) if (r.path.endsWith('/v1/traces')) bytes += r.rawBody.length;
  server.reset(); // keep memory flat over a long run: only the counters matter
};
setInterval(drain, 250).unref();
process.on('message', (msg) => {
  if (msg === 'stats') {
    drain();
    process.send({ bytes, spans, counts: Object.fromEntries(counts), names: Object.fromEntries(names) });
  } else if (msg === 'close') server.close().then(() => process.exit(0));
});
process.send({ url: server.url, publicKey: server.publicKey, secretKey: server.secretKey });

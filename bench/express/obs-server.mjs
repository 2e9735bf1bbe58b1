// The local obs server for the Express bench, in its own process so decoding the exports does not
// run in the parent (the load generator). Counts the trace export bodies and spans it receives.
import { startObsServer } from '@obs/local-server';

let bytes = 0;
let spans = 0;
const server = await startObsServer({
  quiet: true,
  onSpans(batch) {
    spans += batch.length;
  },
});
// Keep memory flat over a long run: only the counters matter.
setInterval(() => {
  for (const r of server.requests) if (r.path.endsWith('/v1/traces')) bytes += r.rawBody.length;
  server.reset();
}, 250).unref();
process.on('message', (msg) => {
  if (msg === 'stats') {
    for (const r of server.requests) if (r.path.endsWith('/v1/traces')) bytes += r.rawBody.length;
    server.reset();
    process.send({ bytes, spans });
  } else if (msg === 'close') server.close().then(() => process.exit(0));
});
process.send({ url: server.url, publicKey: server.publicKey, secretKey: server.secretKey });

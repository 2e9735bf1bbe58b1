// The local obs server for the LangChain bench, in its own process so decoding the exports does
// not run on the measured thread. Reports span counts per instrumentation scope over IPC.
import { startObsServer } from '@obs/local-server';

const counts = new Map();
let exports = 0;
const server = await startObsServer({
  quiet: true,
  onSpans(spans) {
    for (const s of spans) counts.set(s.scope.name, (counts.get(s.scope.name) ?? 0) + 1);
    // Keep the server's memory flat over a long run: only the counts matter here.
    if (++exports % 20 === 0) server.reset();
  },
});
process.on('message', (msg) => {
  if (msg === 'counts') process.send({ counts: Object.fromEntries(counts) });
  if (msg === 'close') server.close().then(() => process.exit(0));
});
process.send({ url: server.url, publicKey: server.publicKey, secretKey: server.secretKey });

// The local obs server for the fault bench, in its own process (its decoding and storage never
// weigh on the measured process's CPU or RSS). Counts arrivals by span name and score id and
// forgets the rest; takes fault commands over IPC.
import { startObsServer } from '@obs/local-server';

const spanCounts = new Map();
const scoreCounts = new Map();
const server = await startObsServer({
  quiet: true,
  maxBodyBytes: Number(process.argv[2] ?? 64 * 1024 * 1024),
  onSpans(batch) {
    for (const s of batch) spanCounts.set(s.name, (spanCounts.get(s.name) ?? 0) + 1);
  },
});
const drain = () => {
  for (const s of server.scores) scoreCounts.set(s.id, (scoreCounts.get(s.id) ?? 0) + 1);
  server.scores.length = 0;
  server.requests.length = 0;
  server.scoreRequests.length = 0;
};
setInterval(drain, 250).unref();
const tally = (m) => ({ unique: m.size, total: [...m.values()].reduce((a, b) => a + b, 0) });
process.on('message', async (msg) => {
  if (msg.fault) server.injectFault(msg.fault);
  else if (msg.clear) server.clearFaults();
  else if (msg.restart) await server.restart(msg.restart);
  else if (msg.stats) {
    drain();
    process.send({ stats: { spans: tally(spanCounts), scores: tally(scoreCounts) } });
    return;
  } else if (msg.reset) {
    spanCounts.clear();
    scoreCounts.clear();
    server.reset();
  } else if (msg.close) {
    await server.close();
    process.exit(0);
  }
  process.send({ done: true });
});
process.send({ url: server.url, publicKey: server.publicKey, secretKey: server.secretKey });

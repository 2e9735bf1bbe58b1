// What the local obs server spends per LangChain span it receives: the OTLP protobuf bodies obs
// exports for 2,000 invocations of run.mjs's chain (8,000 spans, gzip), decoded again and again.
// run.mjs's wall time waits for the server at each block's flush, so this is part of it.
//
//   node bench/langchain/server-decode.mjs [reps=7]
import { gunzipSync } from 'node:zlib';
import { initObs } from '@obs/core';
import { CallbackHandler } from '@obs/langchain';
import { decodeOtlpProtobuf, startObsServer } from '@obs/local-server';
import { median } from '../lib/http-rounds.mjs';
import { benchChain } from './chain.mjs';

const reps = Number(process.argv[2] ?? 7);
const server = await startObsServer({ quiet: true });
const obs = initObs({ baseUrl: server.url, publicKey: server.publicKey, secretKey: server.secretKey, flushOnExit: false });
const chain = benchChain();
const handler = new CallbackHandler({ userId: 'bench-user', sessionId: 'bench-session' });
for (let i = 0; i < 2000; i++) await chain.invoke({ question: `question ${i}` }, { callbacks: [handler] });
await handler.flush();
const bodies = server.requests.filter((r) => r.path.endsWith('/v1/traces')).map((r) => r.rawBody);
await obs.shutdown();
await server.close();

const decode = [];
const gunzip = [];
let spans = 0;
for (let r = 0; r < reps + 1; r++) {
  spans = 0;
  const t0 = performance.now();
  for (const b of bodies) spans += decodeOtlpProtobuf(gunzipSync(b), true).length;
  const t1 = performance.now();
  for (const b of bodies) gunzipSync(b);
  const t2 = performance.now();
  if (r === 0) continue; // warm-up
  decode.push(((t1 - t0) * 1000) / spans);
  gunzip.push(((t2 - t1) * 1000) / spans);
}
const bytes = bodies.reduce((n, b) => n + b.length, 0);
console.log(`Node ${process.version}: ${bodies.length} bodies, ${spans} spans, ${bytes} B gzip`);
console.log(
  `gunzip + decode ${median(decode).toFixed(2)} µs per span (rounds ${decode.map((x) => x.toFixed(2)).join(', ')}); gunzip alone ${median(gunzip).toFixed(2)}`,
);

// Memory (JS heap + array buffers) held per span waiting for export (issue 16, item 4): spans of
// a request trace with ~2.5 KB of input/output text, ended, measured after a full GC.
//   queued    (default) in the span queue, not yet exported (batch size and interval out of reach)
//   outage    handed to the exporter in 512-span batches while the server is down (a closed
//             port), so buffered by the exporter for retry
//
//   node --expose-gc bench/core/queued-heap.mjs [requests=10000] [queued|outage]
import { context, trace } from '@opentelemetry/api';
import { getObsHandle, initObs } from '@obs/core';
import { HttpObserver } from '@obs/core/http';

const N = Number(process.argv[2] ?? 10000);
const mode = process.argv[3] ?? 'queued';
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
initObs({
  baseUrl: 'http://127.0.0.1:9',
  publicKey: 'pk-lf-bench',
  secretKey: 'sk-lf-bench',
  ...(mode === 'outage' ? { flushAt: 512, flushInterval: 0.05 } : { flushAt: 1_000_000, flushInterval: 3600 }),
  maxQueueSize: 1_000_000,
  flushOnExit: false,
});
const observer = new HttpObserver({ traceIdHeader: false, maxCaptureBytes: 100_000 });
const tracer = trace.getTracer('bench-app');
const text = (i) => `${'The quick brown fox jumps over the lazy dog. '.repeat(28)}#${i}`; // ~1.25 KB
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise(setImmediate);
  globalThis.gc();
  globalThis.gc();
};

await settle();
const held = () => {
  const m = process.memoryUsage();
  // Encoded spans live in Buffers, outside the JS heap: count both.
  return m.heapUsed + m.arrayBuffers;
};
const before = held();
for (let i = 0; i < N; i++) {
  const req = { method: 'POST', url: `/chat/${i}`, body: { message: text(i) }, query: {} };
  const ro = observer.start({ req, method: 'POST', path: `/chat/${i}` });
  context.with(ro.context, () => tracer.startSpan('answer').end());
  ro.setRoute('/chat/:id');
  ro.setInput(req.body);
  ro.setOutput({ answer: text(i + 1) }, undefined, 'application/json');
  ro.finish({ statusCode: 200 });
  if (i % 500 === 0) await new Promise(setImmediate);
}
// In an outage, the last partial batch leaves on the interval; every batch fails its first attempt.
if (mode === 'outage') await new Promise((r) => setTimeout(r, 1000));
await settle();
const after = held();
const spans = N * 2;
const where = mode === 'outage' ? 'buffered by the exporter during an outage' : 'queued';
console.log(
  `Node ${process.version}: ${spans} spans ${where} (${N} requests, ~2.5 KB input/output each), heap + array buffers +${((after - before) / 1024 / 1024).toFixed(1)} MB: ${((after - before) / spans / 1024).toFixed(2)} KB per span`,
);
// In an outage, shutdown would wait out its timeout for a server that never comes back.
if (mode !== 'outage') {
  await getObsHandle()
    ?.shutdown()
    .catch(() => {});
}
process.exit(0);

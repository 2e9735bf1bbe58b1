// Export of spans carrying ~2.5 KB of input/output text (issue 16, item 4): 512-span batches,
// each pipeline sending the same batch to the local obs server (in a child process) `sends`
// times per repetition, variants rotated over `reps` repetitions. Per span: CPU of the whole
// process (gzip on the thread pool or a worker included), CPU of the main thread alone (what
// the app's event loop pays; `process.threadCpuUsage`), and gzipped bytes sent.
//
//   npm run build
//   node bench/core/export-text.mjs [--sends 40] [--reps 5]
//
// Pipelines: ObsOtlpExporter (encode on the event loop, gzip level 1 on the thread pool);
// OpenTelemetry's OTLPTraceExporter (proto, gzip: zlib's default level 6); two worker-thread
// variants (encode here and gzip in a worker; clone the span data to a worker that encodes and
// gzips) for whether a worker pays; and gzip levels 1-6 on the same encoded batch alone.
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { ObsOtlpExporter } from '@obs/core';
import { TRACES_PATH } from '@obs/core/kit';
import { ask, median, startObsServerProcess } from '../lib/http-rounds.mjs';
import { makeTextSpans } from './spans.mjs';

const { values } = parseArgs({ options: { sends: { type: 'string', default: '40' }, reps: { type: 'string', default: '5' } } });
const SENDS = Number(values.sends);
const REPS = Number(values.reps);
const BATCH = 512;

const benchRequire = createRequire(import.meta.url);
const { OTLPTraceExporter } = benchRequire('@opentelemetry/exporter-trace-otlp-proto');
const otelRequire = createRequire(benchRequire.resolve('@opentelemetry/exporter-trace-otlp-proto'));
const { ProtobufTraceSerializer } = otelRequire('@opentelemetry/otlp-transformer');
const { encodeTraceExportRequest } = await import(new URL('../../packages/core/dist/export/otlp-proto-encoder.js', import.meta.url));

const { child, conn } = await startObsServerProcess();
const url = `${conn.url}${TRACES_PATH}`;
const auth = `Basic ${Buffer.from(`${conn.publicKey}:${conn.secretKey}`).toString('base64')}`;
const headers = {
  Authorization: auth,
  'Content-Type': 'application/x-protobuf',
  'Content-Encoding': 'gzip',
  'x-obs-ingestion-version': '4',
};

const obs = new ObsOtlpExporter({ baseUrl: conn.url, publicKey: conn.publicKey, secretKey: conn.secretKey, compression: 'gzip' });
const otel = new OTLPTraceExporter({ url, headers: { Authorization: auth, 'x-obs-ingestion-version': '4' }, compression: 'gzip' });

const worker = new Worker(new URL('./gzip-worker.mjs', import.meta.url));
let nextId = 0;
const waiting = new Map();
worker.on('message', ({ id, out }) => waiting.get(id)(out));
const inWorker = (msg, transfer) =>
  new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    worker.postMessage({ id, ...msg }, transfer);
  });
const post = async (body) => {
  const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
};
/** Span data a worker can receive: structured clone keeps own fields, not the prototype's methods. */
const cloneable = (s) => ({
  name: s.name,
  kind: s.kind,
  ctx: s.spanContext(),
  parentSpanContext: s.parentSpanContext,
  startTime: s.startTime,
  endTime: s.endTime,
  attributes: s.attributes,
  status: s.status,
  events: s.events,
  links: s.links,
  resource: { attributes: s.resource.attributes },
  instrumentationScope: s.instrumentationScope,
  droppedAttributesCount: s.droppedAttributesCount,
  droppedEventsCount: s.droppedEventsCount,
  droppedLinksCount: s.droppedLinksCount,
});
const check = (r) => {
  if (r.code !== 0) throw r.error ?? new Error('export failed');
};

const pipelines = {
  'ObsOtlpExporter: encode on the event loop, gzip 1 on the thread pool': (spans) => obs.send(spans).then(check),
  "OpenTelemetry's OTLPTraceExporter (proto, gzip 6)": (spans) =>
    new Promise((resolve, reject) => otel.export(spans, (r) => (r.code === 0 ? resolve() : reject(r.error)))),
  'worker: encode on the event loop, gzip 1 in a worker': async (spans) => {
    const raw = encodeTraceExportRequest(spans);
    await post(await inWorker({ bytes: raw }, [raw.buffer]));
  },
  'worker: clone span data to a worker that encodes and gzips 1': async (spans) => post(await inWorker({ spans: spans.map(cloneable) })),
};

const spans = await makeTextSpans(BATCH);
const raw = encodeTraceExportRequest(spans);
const sizes = {
  'ObsOtlpExporter: encode on the event loop, gzip 1 on the thread pool': gzipSync(raw, { level: 1 }).length,
  "OpenTelemetry's OTLPTraceExporter (proto, gzip 6)": gzipSync(ProtobufTraceSerializer.serializeRequest(spans)).length,
};
sizes['worker: encode on the event loop, gzip 1 in a worker'] =
  sizes['ObsOtlpExporter: encode on the event loop, gzip 1 on the thread pool'];
sizes['worker: clone span data to a worker that encodes and gzips 1'] = (await inWorker({ spans: spans.map(cloneable) })).length;

console.log(
  `Node ${process.version}, ${BATCH}-span batches (${(raw.length / BATCH).toFixed(0)} B per span encoded), ${SENDS} sends per repetition, ${REPS} repetitions`,
);
console.log('| Pipeline | CPU µs per span, process | CPU µs per span, main thread | B per span sent |');
console.log('|---|---:|---:|---:|');
const runs = Object.fromEntries(Object.keys(pipelines).map((k) => [k, { cpu: [], main: [] }]));
for (const send of Object.values(pipelines)) for (let i = 0; i < 10; i++) await send(spans); // warm-up
for (let r = 0; r < REPS; r++) {
  const names = Object.keys(pipelines);
  for (let k = 0; k < names.length; k++) {
    const name = names[(k + r) % names.length];
    const c0 = process.cpuUsage();
    const m0 = process.threadCpuUsage();
    for (let i = 0; i < SENDS; i++) await pipelines[name](spans);
    const m = process.threadCpuUsage(m0);
    const c = process.cpuUsage(c0);
    runs[name].cpu.push((c.user + c.system) / SENDS / BATCH);
    runs[name].main.push((m.user + m.system) / SENDS / BATCH);
  }
}
for (const [name, { cpu, main }] of Object.entries(runs)) {
  console.log(`| ${name} | ${median(cpu).toFixed(2)} | ${median(main).toFixed(2)} | ${(sizes[name] / BATCH).toFixed(0)} |`);
}

console.log('\n| gzip level (the encoded batch alone) | CPU µs per span | B per span |');
console.log('|---:|---:|---:|');
for (let level = 1; level <= 6; level++) {
  for (let i = 0; i < 3; i++) gzipSync(raw, { level });
  const c0 = process.cpuUsage();
  let out;
  for (let i = 0; i < 10; i++) out = gzipSync(raw, { level });
  const c = process.cpuUsage(c0);
  console.log(`| ${level} | ${((c.user + c.system) / 10 / BATCH).toFixed(2)} | ${(out.length / BATCH).toFixed(0)} |`);
}
const stats = await ask(child, 'stats', 'spans');
console.log(`\nserver received ${stats.spans} spans`);
await otel.shutdown();
await worker.terminate();
child.send('close');

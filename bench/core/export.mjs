// What exporting spans costs through obs's public exporter, next to OpenTelemetry's OTLP/proto
// exporter on the same spans: CPU per span for the whole process (gzip on the thread pool
// included) and for the main thread alone (what the app's event loop pays), and bytes per span
// the local obs server received.
//
//   npm run build
//   node bench/core/export.mjs [--spans text|small] [--batch 512] [--sends 40] [--reps 5]
//                              [--pipelines obs,obs-none,obs-fetch,otel]
//
// Spans (spans.mjs, made by @obs/core): `text`, HTTP request roots with ~2.5 KB of input/output
// text and their child span (issue 16 item 4's spans); `small`, request roots and LangChain-like
// chain -> generation pairs of ~470 B each. Every pipeline gets the same batch through the
// `SpanExporter` interface, `sends` times per repetition, pipelines rotated over `reps`;
// the local obs server runs in a child process (its decoding is not counted). Pipelines:
//   obs        ObsOtlpExporter as initObs() makes it: protobuf, gzip level 1, node:http keep-alive
//   obs-none   the same with compression 'none': encode and POST without gzip (gzip's share)
//   obs-fetch  the same as obs with useFetch: true (fetch instead of node:http)
//   otel       OpenTelemetry's OTLPTraceExporter (proto, gzip: zlib's default level 6)
// Then gzip levels 1-6 on the batch's OTLP bytes alone (OpenTelemetry's serializer; obs's encoder
// writes the same bytes, as packages/core's encoder tests check): CPU and bytes per span.
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { ObsOtlpExporter } from '@obs/core';
import { TRACES_PATH } from '@obs/core/kit';
import { ask, median, startObsServerProcess } from '../lib/http-rounds.mjs';
import { makeSpans, makeTextSpans } from './spans.mjs';

const { values } = parseArgs({
  options: {
    spans: { type: 'string', default: 'text' },
    batch: { type: 'string', default: '512' },
    sends: { type: 'string', default: '40' },
    reps: { type: 'string', default: '5' },
    pipelines: { type: 'string', default: 'obs,obs-none,obs-fetch,otel' },
  },
});
const BATCH = Number(values.batch);
const SENDS = Number(values.sends);
const REPS = Number(values.reps);
if (!['text', 'small'].includes(values.spans)) throw new Error('--spans is text or small');

const benchRequire = createRequire(import.meta.url);
const { OTLPTraceExporter } = benchRequire('@opentelemetry/exporter-trace-otlp-proto');
const otelRequire = createRequire(benchRequire.resolve('@opentelemetry/exporter-trace-otlp-proto'));
const { ProtobufTraceSerializer } = otelRequire('@opentelemetry/otlp-transformer');

const { child, conn } = await startObsServerProcess();
const keys = { baseUrl: conn.url, publicKey: conn.publicKey, secretKey: conn.secretKey };
const auth = `Basic ${Buffer.from(`${conn.publicKey}:${conn.secretKey}`).toString('base64')}`;
const exporters = {
  obs: new ObsOtlpExporter({ ...keys, compression: 'gzip' }),
  'obs-none': new ObsOtlpExporter({ ...keys, compression: 'none' }),
  'obs-fetch': new ObsOtlpExporter({ ...keys, compression: 'gzip', useFetch: true }),
  otel: new OTLPTraceExporter({
    url: `${conn.url}${TRACES_PATH}`,
    headers: { Authorization: auth, 'x-obs-ingestion-version': '4' },
    compression: 'gzip',
  }),
};
const names = values.pipelines.split(',');
for (const n of names) if (!exporters[n]) throw new Error(`unknown pipeline ${n}`);

/** One export of `spans` through `exporter`, resolved when the server has answered. */
const send = (exporter, spans) =>
  new Promise((resolve, reject) =>
    exporter.export(spans, (r) => (r.code === 0 ? resolve() : reject(r.error ?? new Error('export failed')))),
  );
const receivedBytes = async () => (await ask(child, 'stats', 'bytes')).bytes;

const spans = values.spans === 'text' ? await makeTextSpans(BATCH) : (await makeSpans(BATCH)).slice(0, BATCH);
const raw = ProtobufTraceSerializer.serializeRequest(spans);

// Bytes per span as the server received them, and warm-up.
const sent = {};
for (const n of names) {
  const before = await receivedBytes();
  await send(exporters[n], spans);
  sent[n] = ((await receivedBytes()) - before) / BATCH;
  for (let i = 0; i < 9; i++) await send(exporters[n], spans);
}

const runs = Object.fromEntries(names.map((n) => [n, { cpu: [], main: [] }]));
for (let r = 0; r < REPS; r++) {
  for (let k = 0; k < names.length; k++) {
    const n = names[(k + r) % names.length];
    const c0 = process.cpuUsage();
    const m0 = process.threadCpuUsage();
    for (let i = 0; i < SENDS; i++) await send(exporters[n], spans);
    const m = process.threadCpuUsage(m0);
    const c = process.cpuUsage(c0);
    runs[n].cpu.push((c.user + c.system) / SENDS / BATCH);
    runs[n].main.push((m.user + m.system) / SENDS / BATCH);
  }
}

console.log(
  `Node ${process.version}, ${values.spans} spans, ${BATCH}-span batches (${(raw.length / BATCH).toFixed(0)} B per span encoded), ` +
    `${SENDS} sends per repetition, ${REPS} repetitions; medians`,
);
console.log('| pipeline | CPU µs per span, process | CPU µs per span, main thread | B per span received |');
console.log('|---|---:|---:|---:|');
for (const n of names) {
  const { cpu, main } = runs[n];
  console.log(`| ${n} | ${median(cpu).toFixed(2)} | ${median(main).toFixed(2)} | ${sent[n].toFixed(0)} |`);
}

console.log('\n| gzip level (the OTLP bytes alone) | CPU µs per span | B per span |');
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
const expected = BATCH * names.length * (10 + REPS * SENDS);
console.log(`\nserver received ${stats.spans} of ${expected} spans`);
for (const e of Object.values(exporters)) await e.shutdown();
child.send('close');
if (stats.spans !== expected) process.exitCode = 1;

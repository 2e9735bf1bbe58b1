// CPU of exporting spans, the whole way: encode, gzip, POST to the local obs server (in a child
// process, so its decoding is not counted), answer read. The exporter before this change (the
// official ProtobufTraceSerializer, then gzip, then fetch) against today's ObsOtlpExporter with
// its node:http keep-alive transport and with `useFetch`.
//
//   npm run build   (or: npx turbo run build --filter=@obs/core)
//   node bench/core/export.mjs [--sends 400] [--reps 5]
//
// For each batch size (2 spans: a request of the Express bench exported alone; 512: a full
// batch), each pipeline sends the same batch `sends` times in a row (awaiting each), variants
// alternated over `reps` repetitions; CPU is this process's user + system time (gzip runs on the
// thread pool and is included) per span, median over repetitions.
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { ObsOtlpExporter } from '@obs/core';
import { TRACES_PATH } from '@obs/core/kit';
import { ask, median, startObsServerProcess } from '../lib/http-rounds.mjs';
import { makeSpans } from './spans.mjs';

const { values } = parseArgs({ options: { sends: { type: 'string', default: '400' }, reps: { type: 'string', default: '5' } } });
const SENDS = Number(values.sends);
const REPS = Number(values.reps);

const otelRequire = createRequire(createRequire(import.meta.url).resolve('@opentelemetry/exporter-trace-otlp-proto'));
const { ProtobufTraceSerializer } = otelRequire('@opentelemetry/otlp-transformer');
const { gzip } = await import(new URL('../../packages/core/dist/export/compression.js', import.meta.url));

const { child, conn } = await startObsServerProcess();
const options = { baseUrl: conn.url, publicKey: conn.publicKey, secretKey: conn.secretKey, compression: 'gzip' };

const httpExporter = new ObsOtlpExporter(options);
const fetchExporter = new ObsOtlpExporter({ ...options, useFetch: true });
const url = `${conn.url}${TRACES_PATH}`;
const headers = {
  Authorization: `Basic ${Buffer.from(`${conn.publicKey}:${conn.secretKey}`).toString('base64')}`,
  'Content-Type': 'application/x-protobuf',
  'Content-Encoding': 'gzip',
  'x-obs-ingestion-version': '4',
};
/** The exporter's send() before: official serializer, gzip, fetch. */
async function previousSend(spans) {
  const body = await gzip(ProtobufTraceSerializer.serializeRequest(spans));
  const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
}
const pipelines = {
  'before: ProtobufTraceSerializer + gzip + fetch': previousSend,
  'now: encodeTraceExportRequest + gzip + node:http keep-alive': (s) => httpExporter.send(s).then(check),
  'now, useFetch: encodeTraceExportRequest + gzip + fetch': (s) => fetchExporter.send(s).then(check),
};
function check(result) {
  if (result.code !== 0) throw result.error;
}

const spans = await makeSpans(512);
console.log(`Node ${process.version}, ${SENDS} sends per run, ${REPS} repetitions, gzip on`);
console.log('| Batch | Pipeline | CPU µs per span (median) | CPU µs per request | wall µs per request |');
console.log('|---:|---|---:|---:|---:|');
for (const size of [2, 512]) {
  const batch = spans.slice(0, size);
  const sends = size === 2 ? SENDS : Math.max(20, Math.round(SENDS / 10));
  const runs = Object.fromEntries(Object.keys(pipelines).map((k) => [k, { cpu: [], wall: [] }]));
  for (const send of Object.values(pipelines)) for (let i = 0; i < 20; i++) await send(batch); // warm-up
  for (let r = 0; r < REPS; r++) {
    const names = Object.keys(pipelines);
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + r) % names.length];
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < sends; i++) await pipelines[name](batch);
      const c = process.cpuUsage(c0);
      runs[name].cpu.push((c.user + c.system) / sends);
      runs[name].wall.push(((performance.now() - t0) * 1000) / sends);
    }
  }
  for (const [name, { cpu, wall }] of Object.entries(runs)) {
    console.log(`| ${size} | ${name} | ${(median(cpu) / size).toFixed(2)} | ${median(cpu).toFixed(0)} | ${median(wall).toFixed(0)} |`);
  }
}
const stats = await ask(child, 'stats', 'spans');
console.log(`server received ${stats.spans} spans`);
child.send('close');

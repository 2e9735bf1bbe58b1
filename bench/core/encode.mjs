// OTLP protobuf encoding cost per span: @opentelemetry/otlp-transformer's ProtobufTraceSerializer
// (what the exporter used before) against @obs/core's hand-written encoder, on batches of
// realistic obs spans made by @obs/core itself (built dist), then gzip (node:zlib level 1, as the
// exporter does) of the same bodies for scale.
//
//   npm run build   (or: npx turbo run build --filter=@obs/core)
//   node bench/core/encode.mjs [--batch 512] [--batches 40] [--reps 7]
//
// Spans: see spans.mjs (HTTP request roots with a child span, LangChain-like chain -> generation
// pairs). Each batch is encoded once by each encoder per repetition, alternating; the median over
// repetitions of µs per span is reported. Both encoders' bodies are checked to be byte-identical
// first.
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { makeSpans } from './spans.mjs';

const { values } = parseArgs({
  options: {
    batch: { type: 'string', default: '512' },
    batches: { type: 'string', default: '40' },
    reps: { type: 'string', default: '7' },
  },
});
const BATCH = Number(values.batch);
const BATCHES = Number(values.batches);
const REPS = Number(values.reps);

// The official serializer, as OpenTelemetry's own OTLP/proto exporter (a bench dependency) uses it.
const otelRequire = createRequire(createRequire(import.meta.url).resolve('@opentelemetry/exporter-trace-otlp-proto'));
const { ProtobufTraceSerializer } = otelRequire('@opentelemetry/otlp-transformer');
const { encodeTraceExportRequest } = await import(new URL('../../packages/core/dist/export/otlp-proto-encoder.js', import.meta.url));

const collected = await makeSpans(BATCH * BATCHES);
const batches = [];
for (let b = 0; b < BATCHES; b++) batches.push(collected.slice(b * BATCH, (b + 1) * BATCH));

// Same bytes from both.
for (const b of batches) {
  const a = Buffer.from(ProtobufTraceSerializer.serializeRequest(b));
  const o = Buffer.from(encodeTraceExportRequest(b));
  if (!a.equals(o)) throw new Error('the encoders disagree');
}
const bodyBytes = batches.reduce((s, b) => s + encodeTraceExportRequest(b).length, 0);

const encoders = {
  'otlp-transformer ProtobufTraceSerializer': (b) => ProtobufTraceSerializer.serializeRequest(b),
  '@obs/core encodeTraceExportRequest': (b) => encodeTraceExportRequest(b),
};
const bodies = batches.map((b) => encodeTraceExportRequest(b));
const runs = { ...Object.fromEntries(Object.keys(encoders).map((k) => [k, []])), 'gzip level 1 (for scale)': [] };
function time(fn) {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1000 / (BATCH * BATCHES);
}
// Warm-up, then alternate.
for (let w = 0; w < 3; w++) for (const fn of Object.values(encoders)) for (const b of batches) fn(b);
for (let r = 0; r < REPS; r++) {
  const names = r % 2 ? Object.keys(encoders).reverse() : Object.keys(encoders);
  for (const name of names) runs[name].push(time(() => batches.forEach((b) => void encoders[name](b))));
  runs['gzip level 1 (for scale)'].push(time(() => bodies.forEach((b) => void gzipSync(b, { level: 1 }))));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(
  `Node ${process.version}, ${BATCHES} batches of ${BATCH} spans, ${REPS} repetitions; ${(bodyBytes / BATCH / BATCHES).toFixed(0)} bytes per span encoded`,
);
console.log('| Encoder | µs per span (median) | runs |');
console.log('|---|---:|---|');
for (const [name, xs] of Object.entries(runs)) {
  console.log(`| ${name} | ${median(xs).toFixed(2)} | ${xs.map((x) => x.toFixed(2)).join(', ')} |`);
}

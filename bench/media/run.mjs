// The media path's cost (issue 35 item 5, second half): what uploading base64 media costs per MB,
// on the event loop and in all, and what looking for media costs spans that have none.
//
//   node bench/media/run.mjs [--sizes 0.2,1,5,20] [--mb 20] [--reps 5] [--plain 5000] [--parts 1,2,3]
//
// 1. Primitives, per MB: base64 decoding as the export does it (into a buffer of its size), and
//    SHA-256 on the event loop (node:crypto) and through WebCrypto (the part that runs before its
//    promise returns). No obs code: what the platform charges.
// 2. End to end, per MB of media: blocks of spans (generations with an OpenAI-style message
//    holding a distinct image of `size` MB as a data URI, `mb` MB per block), ended, then
//    `forceFlush()` (asks, uploads, reports and the export to a local obs server in its own
//    process, all inside the block). Setups: media uploaded (the default), the same image in
//    every span (asked for each span, uploaded once), media off (`media: false`: the base64 is
//    exported, cut at 1,000,000 characters), and the same message without the image (the
//    baseline). Process CPU (every thread: the hash worker's too) and event-loop busy time
//    (`performance.eventLoopUtilization`) above the baseline, per MB.
// 3. Spans without media: `plain` generations with ~2 KB of messages and ~20 KB of retrieved
//    text in metadata, media on and off: CPU and event-loop µs per span; the difference is the
//    search for media (an `indexOf` per attribute, a probe every 512 characters of long ones).
//
// One process (the obs server aside), setups rotated per repetition, the median of `reps`.
import { randomBytes, createHash } from 'node:crypto';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ObsSpanProcessor, startObservation } from '@obs/core';
import { trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ask, median } from '../lib/http-rounds.mjs';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '0.2,1,5,20' },
    mb: { type: 'string', default: '20' },
    reps: { type: 'string', default: '5' },
    plain: { type: 'string', default: '5000' },
    parts: { type: 'string', default: '1,2,3' },
  },
});
const SIZES = values.sizes.split(',').map(Number);
const MB_PER_BLOCK = Number(values.mb);
const REPS = Number(values.reps);
const PLAIN = Number(values.plain);
const PARTS = new Set(values.parts.split(',').map(Number));
const MB = 1024 * 1024;

console.log(`node bench/media/run.mjs --sizes ${values.sizes} --mb ${values.mb} --reps ${REPS} --plain ${PLAIN} --parts ${values.parts}`);
console.log(
  `node ${process.version}, ${cpus().length} x ${cpus()[0]?.model}, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);

// --- 1. primitives -----------------------------------------------------------------------------

/** ms per MB of `fn(size)` on the event loop, median of `reps` (each over at least 16 MB). */
async function perMb(size, fn) {
  const bytes = Math.round(size * MB);
  const times = Math.max(1, Math.ceil(16 / size));
  const input = randomBytes(bytes);
  const text = input.toString('base64');
  const runs = [];
  for (let r = 0; r < REPS; r++) {
    const t0 = performance.now();
    for (let i = 0; i < times; i++) await fn(input, text);
    runs.push((performance.now() - t0) / times / size);
  }
  return median(runs);
}

const primitives = {
  'base64 decode (Buffer#write into its size)': (_input, text) => {
    const out = Buffer.allocUnsafeSlow(Math.floor((text.length * 3) / 4));
    out.write(text, 0, 'base64');
  },
  'SHA-256, node:crypto on the loop': (input) => {
    createHash('sha256').update(input).digest('base64');
  },
  'SHA-256, WebCrypto until its promise returns': (input) => {
    void crypto.subtle.digest('SHA-256', input);
  },
};

if (PARTS.has(1)) {
  console.log('\n1. Primitives: event-loop ms per MB (median)\n');
  console.log(`| primitive | ${SIZES.map((s) => `${s} MB`).join(' | ')} |`);
  console.log(`| --- | ${SIZES.map(() => '---:').join(' | ')} |`);
}
for (const [name, fn] of PARTS.has(1) ? Object.entries(primitives) : []) {
  const row = [];
  for (const size of SIZES) row.push((await perMb(size, fn)).toFixed(3));
  console.log(`| ${name} | ${row.join(' | ')} |`);
}

// --- 2. end to end -----------------------------------------------------------------------------

const server = fork(fileURLToPath(new URL('./media-server-process.mjs', import.meta.url)), [], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const [conn] = await once(server, 'message');

/** A processor on a fresh global provider (obs spans go to the global one). */
function install(media) {
  trace.disable();
  const processor = new ObsSpanProcessor({
    baseUrl: conn.url,
    publicKey: conn.publicKey,
    secretKey: conn.secretKey,
    media,
  });
  trace.setGlobalTracerProvider(new NodeTracerProvider({ spanProcessors: [processor] }));
  return processor;
}
const processors = { on: install(true), off: install(false) };

const message = (image) => [
  { role: 'system', content: 'You describe images in one sentence.' },
  {
    role: 'user',
    content: image
      ? [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image_url', image_url: { url: image } },
        ]
      : 'What is in this picture?',
  },
];
const dataUri = (bytes) => `data:image/png;base64,${bytes.toString('base64')}`;

/** Ends one generation per input, then flushes: CPU (all threads), event-loop busy and wall ms. */
async function block(processor, inputs) {
  trace.disable();
  trace.setGlobalTracerProvider(new NodeTracerProvider({ spanProcessors: [processor] }));
  await ask(server, 'stats', 'spans'); // start from an empty server
  const c0 = process.cpuUsage();
  const e0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  for (const input of inputs) startObservation('vision', { input, model: 'gpt-bench' }, { asType: 'generation' }).end();
  await processor.forceFlush();
  const wall = performance.now() - t0;
  const loop = performance.eventLoopUtilization(e0).active;
  const c = process.cpuUsage(c0);
  const stats = await ask(server, 'stats', 'spans');
  if (stats.spans !== inputs.length) throw new Error(`expected ${inputs.length} spans, the server got ${stats.spans}`);
  return { cpu: (c.user + c.system) / 1000, loop, wall, stats };
}

if (PARTS.has(2)) {
  console.log('\n2. End to end: ms per MB of media above the same spans without it (median)\n');
  console.log('| image | setup | spans | CPU ms/MB (all threads) | event-loop ms/MB | wall ms/MB | asks / uploads |');
  console.log('| ---: | --- | ---: | ---: | ---: | ---: | ---: |');
}
for (const size of PARTS.has(2) ? SIZES : []) {
  const count = Math.max(2, Math.min(200, Math.ceil(MB_PER_BLOCK / size)));
  const mb = count * size;
  const setups = [
    { name: 'no image (baseline)', processor: processors.on, inputs: () => Array.from({ length: count }, () => message()) },
    {
      name: 'uploaded',
      processor: processors.on,
      inputs: () => Array.from({ length: count }, () => message(dataUri(randomBytes(Math.round(size * MB))))),
    },
    {
      name: 'the same image in every span',
      processor: processors.on,
      inputs: () => {
        const uri = dataUri(randomBytes(Math.round(size * MB)));
        return Array.from({ length: count }, () => message(uri));
      },
    },
    {
      name: 'media: false (exported inline, cut)',
      processor: processors.off,
      inputs: () => Array.from({ length: count }, () => message(dataUri(randomBytes(Math.round(size * MB))))),
    },
  ];
  for (const s of setups) await block(s.processor, s.inputs()); // warm-up
  const runs = new Map(setups.map((s) => [s.name, []]));
  for (let r = 0; r < REPS; r++) {
    for (let i = 0; i < setups.length; i++) {
      const s = setups[(i + r) % setups.length];
      runs.get(s.name).push(await block(s.processor, s.inputs()));
    }
  }
  const base = runs.get(setups[0].name);
  const baseOf = (key) => median(base.map((x) => x[key]));
  for (const s of setups.slice(1)) {
    const rs = runs.get(s.name);
    const above = (key) => ((median(rs.map((x) => x[key])) - baseOf(key)) / mb).toFixed(2);
    const last = rs[rs.length - 1].stats;
    console.log(
      `| ${size} MB | ${s.name} | ${count} | ${above('cpu')} | ${above('loop')} | ${above('wall')} | ${last.asks} / ${last.uploads} |`,
    );
  }
}

// --- 3. spans without media --------------------------------------------------------------------

const prose = (chars) => {
  const words = ['the', 'refund', 'policy', 'covers', 'orders', 'placed', 'within', 'thirty', 'days', 'of', 'delivery'];
  let out = '';
  for (let i = 0; out.length < chars; i++) out += `${words[i % words.length]} `;
  return out;
};
const plainInput = [
  { role: 'system', content: prose(800) },
  { role: 'user', content: prose(1200) },
];
const context = prose(20_000);

async function plainBlock(processor) {
  trace.disable();
  trace.setGlobalTracerProvider(new NodeTracerProvider({ spanProcessors: [processor] }));
  await ask(server, 'stats', 'spans');
  const c0 = process.cpuUsage();
  const e0 = performance.eventLoopUtilization();
  for (let i = 0; i < PLAIN; i++) {
    startObservation(
      'answer',
      { input: plainInput, output: prose(300), metadata: { context }, model: 'gpt-bench' },
      { asType: 'generation' },
    ).end();
    // Flushed every 1,000 spans (~22 MB): a burst of 5,000 such spans (~110 MB) outruns the
    // export and fills its 64 MiB buffer, whose overflow is dropped by design.
    if (i % 1000 === 999) await processor.forceFlush();
  }
  await processor.forceFlush();
  const loop = performance.eventLoopUtilization(e0).active;
  const c = process.cpuUsage(c0);
  const stats = await ask(server, 'stats', 'spans');
  if (stats.spans !== PLAIN || stats.asks !== 0) throw new Error(`expected ${PLAIN} spans and no ask, got ${JSON.stringify(stats)}`);
  return { cpu: (c.user + c.system) / PLAIN, loop: (loop * 1000) / PLAIN };
}

await plainBlock(processors.on);
await plainBlock(processors.off);
const plain = { on: [], off: [] };
for (let r = 0; r < REPS; r++) {
  for (const key of r % 2 ? ['off', 'on'] : ['on', 'off']) plain[key].push(await plainBlock(processors[key]));
}
const m = (key, field) => median(plain[key].map((x) => x[field]));
console.log(`\n3. Spans without media (~2 KB of messages, ~20 KB of metadata): µs per span, ${PLAIN} spans, median\n`);
console.log('| setup | CPU µs per span | event-loop µs per span |');
console.log('| --- | ---: | ---: |');
console.log(`| media: false | ${m('off', 'cpu').toFixed(1)} | ${m('off', 'loop').toFixed(1)} |`);
console.log(`| media on (default) | ${m('on', 'cpu').toFixed(1)} | ${m('on', 'loop').toFixed(1)} |`);
const signed = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;
console.log(`| the search for media | ${signed(m('on', 'cpu') - m('off', 'cpu'))} | ${signed(m('on', 'loop') - m('off', 'loop'))} |`);

server.send('close');
await processors.on.shutdown();
await processors.off.shutdown();

// Delivery through server faults at a steady 1,000 spans/s and 100 scores/s, defaults of
// ObsSpanProcessor and ObsClient: what arrived (by span name and score id, duplicates counted),
// log lines written, and the RSS of this process during a long outage (the plateau).
//
//   npx turbo run build --filter=@obs/core --filter=@obs/local-server
//   node bench/core/faults.mjs [--outage 30] [--fault 3]
//
// The server runs in a child process (bench/core/fault-server.mjs); each scenario runs the load
// for fault + 7 s, injects the fault 2 s in, then flushes and counts.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { context } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ObsClient, ObsSpanProcessor, setLogger, startObservation } from '@obs/core';
import { TRACES_PATH } from '@obs/core/kit';

const { values } = parseArgs({ options: { outage: { type: 'string', default: '30' }, fault: { type: 'string', default: '3' } } });
const OUTAGE_S = Number(values.outage);
const FAULT_S = Number(values.fault);
const SPANS_PER_S = 1000;
const SCORES_PER_S = 100;
const SCORES_PATH = '/api/public/scores';

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const lines = [];
const push = (level) => (m) => lines.push(`${level} ${m}`);
setLogger({ debug() {}, info: push('info'), warn: push('warn'), error: push('error') }, 'info');

async function startServer(maxBodyBytes) {
  const child = fork(fileURLToPath(new URL('./fault-server.mjs', import.meta.url)), maxBodyBytes ? [String(maxBodyBytes)] : [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [conn] = await once(child, 'message');
  const ask = (msg) =>
    new Promise((resolve) => {
      child.once('message', resolve);
      child.send(msg);
    });
  return { child, conn, ask };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function run(name, { seconds, at, action, maxBodyBytes, bigSpan, sampleRss }) {
  const server = await startServer(maxBodyBytes);
  const { conn } = server;
  trace.disable();
  const processor = new ObsSpanProcessor({
    baseUrl: conn.url,
    publicKey: conn.publicKey,
    secretKey: conn.secretKey,
    compression: bigSpan ? 'none' : undefined,
  });
  const provider = new NodeTracerProvider({ spanProcessors: [processor] });
  trace.setGlobalTracerProvider(provider);
  const client = new ObsClient({ baseUrl: conn.url, publicKey: conn.publicKey, secretKey: conn.secretKey });
  lines.length = 0;
  global.gc?.();
  const rss = { before: process.memoryUsage().rss, peak: 0, samples: [] };
  const sampler = sampleRss ? setInterval(() => rss.samples.push(process.memoryUsage().rss), 1000) : undefined;
  let spans = 0;
  let scores = 0;
  const started = Date.now();
  let fired = false;
  const actions = [];
  const TICK = 10;
  for (let tick = 0; (tick + 1) * TICK <= seconds * 1000; tick++) {
    while (spans < ((tick + 1) * TICK * SPANS_PER_S) / 1000) {
      const s = startObservation(`s-${spans++}`, { input: { question: 'what is the weather like today in Paris?', n: spans } });
      s.update({ output: { answer: 'sunny, 21 degrees', tokens: 12 } });
      s.end();
    }
    while (scores < ((tick + 1) * TICK * SCORES_PER_S) / 1000) {
      client.score.create({ id: `c-${scores++}`, traceId: 'a'.repeat(32), name: 'quality', value: 1 });
    }
    if (!fired && Date.now() - started >= at * 1000) {
      fired = true;
      if (bigSpan) startObservation(`s-${spans++}`, { input: 'A'.repeat(6 * 1024 * 1024) }).end();
      actions.push(action?.(server));
    }
    const next = started + (tick + 1) * TICK;
    await sleep(Math.max(0, next - Date.now()));
  }
  await Promise.all(actions);
  const flushStart = Date.now();
  await Promise.all([processor.forceFlush(), client.flush()]);
  const flushMs = Date.now() - flushStart;
  if (sampler) clearInterval(sampler);
  const { stats } = await server.ask({ stats: true });
  await provider.shutdown();
  await client.shutdown();
  server.child.send({ close: true });
  const row = {
    name,
    spans: `${stats.spans.unique}/${spans}`,
    spansLost: spans - stats.spans.unique,
    spanDup: stats.spans.total - stats.spans.unique,
    scores: `${stats.scores.unique}/${scores}`,
    scoresLost: scores - stats.scores.unique,
    scoreDup: stats.scores.total - stats.scores.unique,
    logLines: lines.length,
    flushS: (flushMs / 1000).toFixed(1),
  };
  if (sampleRss) {
    const mb = (b) => Math.round(b / 1e6);
    row.rssMb = `${mb(rss.before)} -> peak ${mb(Math.max(...rss.samples))} (samples each 1 s: ${rss.samples.map(mb).join(' ')})`;
  }
  console.log(JSON.stringify(row));
  for (const l of lines) console.log(`    ${l.slice(0, 220)}`);
  return row;
}

const faultFor = (fault, seconds = FAULT_S) => ({ durationMs: seconds * 1000, ...fault });
const both =
  (fault) =>
  async ({ ask }) => {
    await ask({ fault: { path: TRACES_PATH, ...fault } });
    await ask({ fault: { path: SCORES_PATH, ...fault } });
  };
const load = FAULT_S + 7;
const rows = [];
rows.push(await run(`503 for ${FAULT_S} s`, { seconds: load, at: 2, action: both(faultFor({ status: 503 })) }));
rows.push(await run(`500 for ${FAULT_S} s`, { seconds: load, at: 2, action: both(faultFor({ status: 500 })) }));
rows.push(
  await run(`429 Retry-After 1 for ${FAULT_S} s`, { seconds: load, at: 2, action: both(faultFor({ status: 429, retryAfter: 1 })) }),
);
rows.push(await run(`connection resets for ${FAULT_S} s`, { seconds: load, at: 2, action: both(faultFor({ reset: true })) }));
rows.push(await run(`restart (port closed ${FAULT_S} s)`, { seconds: load, at: 2, action: ({ ask }) => ask({ restart: FAULT_S * 1000 }) }));
rows.push(
  await run(`hang (black hole) ${FAULT_S} s`, {
    seconds: load,
    at: 2,
    action: async (s) => {
      await both(faultFor({ hang: true }))(s);
      await sleep(FAULT_S * 1000);
      await s.ask({ clear: true });
    },
  }),
);
rows.push(await run('6 MB span, 4 MB request limit', { seconds: 5, at: 2, bigSpan: true, maxBodyBytes: 4 * 1024 * 1024 }));
rows.push(
  await run(`503 for ${OUTAGE_S} s (memory)`, {
    seconds: OUTAGE_S + 8,
    at: 2,
    action: both(faultFor({ status: 503 }, OUTAGE_S)),
    sampleRss: true,
  }),
);
console.log(
  '\n| fault | spans arrived | spans lost | span duplicates | scores arrived | scores lost | score duplicates | log lines | flush after load (s) |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.name} | ${r.spans} | ${r.spansLost} | ${r.spanDup} | ${r.scores} | ${r.scoresLost} | ${r.scoreDup} | ${r.logLines} | ${r.flushS} |`,
  );
const mem = rows.at(-1).rssMb;
console.log(`\nRSS during the ${OUTAGE_S} s outage: ${mem}`);
process.exit(0);

// The viewer's reads at scale: list and open-trace latency of the local server's viewer API with
// 10,000 and 100,000 traces kept in SQLite (a data directory) and, as the baseline of the same
// run, in memory. Seeds over OTLP/JSON (three spans a trace, 500 traces a request), then times
// sequential requests from this process: the list (a page of 200, newest first), the list
// filtered by name, by user, errors only, searched for a rare and a common word, and one trace.
//
//   node bench/local-server/list.mjs [--traces 10000,100000] [--stores sqlite,memory] [--requests 30]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startObsServer } from '@obs/local-server';

const { values } = parseArgs({
  options: {
    traces: { type: 'string', default: '10000,100000' },
    stores: { type: 'string', default: 'sqlite,memory' },
    requests: { type: 'string', default: '30' },
  },
});
const sizes = values.traces.split(',').map(Number);
const stores = values.stores.split(',');
const requests = Number(values.requests);
const WORDS = ['refund', 'invoice', 'shipping', 'password', 'upgrade', 'cancel', 'delivery', 'warranty', 'discount', 'login'];
const PER_REQUEST = 500;

const hex = (n, width) => n.toString(16).padStart(width, '0');
const attr = (key, value) => ({ key, value: typeof value === 'number' ? { intValue: value } : { stringValue: value } });

/** Three spans of trace number `i`: a request root, a generation with usage, a tool. */
function traceSpans(i, base) {
  const traceId = hex(i + 1, 32);
  const start = base + BigInt(i) * 1_000_000n;
  const span = (n, name, from, to, attributes, parent) => ({
    traceId,
    spanId: hex(i * 4 + n + 1, 16),
    ...(parent !== undefined && { parentSpanId: hex(i * 4 + parent + 1, 16) }),
    name,
    kind: 1,
    startTimeUnixNano: String(start + BigInt(from)),
    endTimeUnixNano: String(start + BigInt(to)),
    attributes,
    ...(i % 50 === 0 && n === 1 && { status: { code: 2, message: 'model timed out' } }),
  });
  const word = WORDS[i % WORDS.length];
  return [
    span(0, `POST /chat/${i % 20}`, 0, 900_000, [
      attr('obs.observation.input', JSON.stringify({ question: `About my ${word}: order ${i} please` })),
      attr('obs.observation.output', JSON.stringify({ answer: `Your ${word} for order ${i} is on its way.` })),
      attr('user.id', `user-${i % 1000}`),
      attr('session.id', `session-${Math.floor(i / 4)}`),
    ]),
    span(
      1,
      'chat-model',
      100_000,
      800_000,
      [
        attr('obs.observation.type', 'generation'),
        attr('obs.observation.model.name', 'gpt-4o-mini'),
        attr('obs.observation.usage_details', '{"input":31,"output":12,"total":43}'),
        attr('obs.observation.output', `The ${word} of order ${i} is handled.`),
      ],
      0,
    ),
    span(2, 'lookup-order', 50_000, 90_000, [attr('obs.observation.type', 'tool')], 0),
  ];
}

async function seed(server, count) {
  const auth = `Basic ${Buffer.from(`${server.publicKey}:${server.secretKey}`).toString('base64')}`;
  const base = BigInt(Date.now() - count) * 1_000_000n;
  for (let from = 0; from < count; from += PER_REQUEST) {
    const spans = [];
    for (let i = from; i < Math.min(from + PER_REQUEST, count); i++) spans.push(...traceSpans(i, base));
    const res = await fetch(`${server.url}/api/public/otel/v1/traces`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'bench' }, spans }] }] }),
    });
    if (res.status !== 200) throw new Error(`seeding answered ${res.status}`);
  }
}

/** Median and 95th percentile of `requests` timed GETs, in ms (after one untimed request). */
async function time(url, check) {
  const once = async () => {
    const t = performance.now();
    const res = await fetch(url);
    const body = await res.json();
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    check?.(body);
    return ms;
  };
  await once();
  const ms = [];
  for (let i = 0; i < requests; i++) ms.push(await once());
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(ms.length / 2)], p95: ms[Math.min(ms.length - 1, Math.ceil(ms.length * 0.95) - 1)] };
}

const rows = [];
for (const count of sizes) {
  for (const store of stores) {
    const data = store === 'sqlite' ? mkdtempSync(path.join(tmpdir(), 'obs-bench-list-')) : undefined;
    const server = await startObsServer({ quiet: true, record: false, ...(data && { data }) });
    const t0 = performance.now();
    await seed(server, count);
    const seedS = (performance.now() - t0) / 1000;
    const v = `${server.url}/viewer-api`;
    const expectTotal = (n) => (body) => {
      if (body.total !== n) throw new Error(`expected ${n} traces, got ${body.total}`);
    };
    const first = await time(`${v}/traces?limit=200`, expectTotal(count)); // memory folds on its first read
    const cases = {
      list: first,
      'name filter': await time(`${v}/traces?limit=200&name=chat%2F7`),
      'user filter': await time(`${v}/traces?limit=200&user=user-42`, expectTotal(count / 1000)),
      'errors only': await time(`${v}/traces?limit=200&errors=1`, expectTotal(count / 50)),
      'search, rare': await time(`${v}/traces?limit=200&q=order+${count - 7}`),
      'search, common': await time(`${v}/traces?limit=200&q=refund`, expectTotal(count / WORDS.length)),
      'open trace': await time(`${v}/traces/${hex(Math.floor(count / 2) + 1, 32)}`, (b) => {
        if (b.observations.length !== 3) throw new Error('the trace should have 3 observations');
      }),
    };
    const size = data
      ? statSync(path.join(data, 'obs-local.sqlite')).size +
        statSync(path.join(data, 'obs-local.sqlite-wal'), { throwIfNoEntry: false })?.size
      : 0;
    for (const [name, { p50, p95 }] of Object.entries(cases)) rows.push({ traces: count, store, read: name, p50, p95 });
    console.error(`${store} ${count}: seeded in ${seedS.toFixed(1)} s${data ? `, ${(size / 2 ** 20).toFixed(0)} MiB on disk` : ''}`);
    await server.close();
    if (data) rmSync(data, { recursive: true, force: true });
  }
}

console.log(`node ${process.version}, ${requests} requests a figure, ms (median / p95), one client, sequential`);
console.log('| traces | store | read | p50 ms | p95 ms |');
console.log('| --- | --- | --- | --- | --- |');
for (const r of rows)
  console.log(`| ${r.traces.toLocaleString('en')} | ${r.store} | ${r.read} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} |`);

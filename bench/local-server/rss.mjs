// Resident memory of the local server as a daemon (issue 45): the published CLI in a child
// process with a data directory (what `npx @obs/local-server` runs), 100,000 spans of ~1 KB
// ingested over OTLP/JSON (500 a request, one client), its RSS read from /proc at 10,000 spans
// and at 100,000. Then, on a fresh CLI, unauthenticated gzip bombs (0.5 MB that inflate to
// 512 MB each), RSS before and after. Linux only (/proc).
//
//   node bench/local-server/rss.mjs [--spans 100000] [--at 10000] [--bytes 1000] [--bombs 8]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const { values } = parseArgs({
  options: {
    spans: { type: 'string', default: '100000' },
    at: { type: 'string', default: '10000' },
    bytes: { type: 'string', default: '1000' },
    bombs: { type: 'string', default: '8' },
  },
});
const total = Number(values.spans);
const at = Number(values.at);
const bytes = Number(values.bytes);
const bombs = Number(values.bombs);
const PER_REQUEST = 500;
const CLI = fileURLToPath(new URL('../../packages/local-server/dist/cli.js', import.meta.url));
const auth = `Basic ${Buffer.from('pk-obs-local:sk-obs-local').toString('base64')}`;

const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

async function start(args) {
  const child = spawn(process.execPath, [CLI, '--port', '0', '--quiet', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const url = await new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`the CLI exited with ${code}`)));
    const poll = setInterval(() => {
      const found = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (found) {
        clearInterval(poll);
        resolve(found);
      }
    }, 20);
  });
  const stop = () =>
    new Promise((resolve) => {
      child.removeAllListeners('exit');
      child.on('exit', resolve);
      child.kill('SIGTERM');
    });
  return { url, pid: child.pid, stop };
}

function body(from, count) {
  const filler = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(bytes / 27)).slice(0, bytes);
  const base = BigInt(Date.now()) * 1_000_000n;
  const spans = [];
  for (let i = from; i < from + count; i++) {
    spans.push({
      traceId: (i + 1).toString(16).padStart(32, '0'),
      spanId: (i + 1).toString(16).padStart(16, '0'),
      name: `request ${i % 50}`,
      kind: 1,
      startTimeUnixNano: String(base + BigInt(i) * 1000n),
      endTimeUnixNano: String(base + BigInt(i) * 1000n + 500_000n),
      attributes: [
        { key: 'obs.observation.input', value: { stringValue: `${i} ${filler}` } },
        { key: 'obs.observation.model.name', value: { stringValue: 'gpt-4o-mini' } },
        { key: 'obs.observation.usage_details', value: { stringValue: '{"input":120,"output":30}' } },
      ],
    });
  }
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'bench' }, spans }] }] });
}

// 1. Ingestion.
const data = mkdtempSync(path.join(tmpdir(), 'obs-bench-rss-'));
const cli = await start(['--data', data]);
const samples = [{ spans: 0, rss: rssMb(cli.pid) }];
const t0 = performance.now();
for (let sent = 0; sent < total; sent += PER_REQUEST) {
  const res = await fetch(`${cli.url}/api/public/otel/v1/traces`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: body(sent, PER_REQUEST),
  });
  if (res.status !== 200) throw new Error(`ingestion answered ${res.status}`);
  const now = sent + PER_REQUEST;
  if (now % at === 0) samples.push({ spans: now, rss: rssMb(cli.pid) });
}
const seconds = (performance.now() - t0) / 1000;
const count = (await (await fetch(`${cli.url}/viewer-api/traces?limit=1`)).json()).total;
await cli.stop();
rmSync(data, { recursive: true, force: true });
const rssAt = (n) => samples.find((s) => s.spans === n)?.rss;

// 2. Unauthenticated gzip bombs.
const member = gzipSync(Buffer.alloc(64 * 1024 * 1024)); // 64 MiB of zeros, ~64 KB
const bomb = Buffer.concat(Array.from({ length: 8 }, () => member)); // ~0.5 MB, 512 MiB inflated
const victim = await start(['--memory']);
await fetch(`${victim.url}/api/public/health`);
const before = rssMb(victim.pid);
const statuses = [];
for (let i = 0; i < bombs; i++) {
  const res = await fetch(`${victim.url}/api/public/otel/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    body: bomb,
  }).catch((err) => ({ status: `error ${err.cause?.code ?? err.message}` }));
  statuses.push(res.status);
}
const after = rssMb(victim.pid);
await victim.stop();

console.log(
  `node ${process.version}; the CLI with a data directory, ${total.toLocaleString('en-US')} spans of ~${bytes} B in ${seconds.toFixed(1)} s (${count.toLocaleString('en-US')} traces kept)`,
);
console.log('| spans | RSS (MB) |');
console.log('|---:|---:|');
for (const s of samples) console.log(`| ${s.spans.toLocaleString('en-US')} | ${s.rss.toFixed(0)} |`);
console.log(
  `RSS at ${total.toLocaleString('en-US')} minus RSS at ${at.toLocaleString('en-US')}: ${(rssAt(total) - rssAt(at)).toFixed(0)} MB`,
);
console.log(
  `${bombs} unauthenticated gzip bombs (${(bomb.length / 1e6).toFixed(2)} MB, 512 MiB inflated): answered ${[...new Set(statuses)].join(', ')}; RSS ${before.toFixed(0)} -> ${after.toFixed(0)} MB`,
);

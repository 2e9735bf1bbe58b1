// Cost of `client.prompt.get` served from the cache, against a real request to the local obs
// server (`cacheTtlSeconds: 0`), and the number of requests each makes. A cached get is what an
// app pays on its request path once the prompt is warm.
//
//   node bench/core/prompt-cache.mjs [cachedGets=200000] [uncachedGets=500] [repetitions=5]
import { ObsClient } from '@obs/core';
import { startObsServer } from '@obs/local-server';

const [cachedN = '200000', uncachedN = '500', reps = '5'] = process.argv.slice(2);
const server = await startObsServer({ quiet: true });
const client = new ObsClient({ baseUrl: server.url, publicKey: server.publicKey, secretKey: server.secretKey });
await client.prompt.create({ name: 'bench', prompt: 'Answer {{question}} for {{user}}.', labels: ['production'] });
const promptGets = () => server.requests.filter((r) => r.method === 'GET' && r.path === '/api/public/v2/prompts/bench').length;

async function time(n, options) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await client.prompt.get('bench', options);
  return Number(process.hrtime.bigint() - start) / 1000 / n;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await client.prompt.get('bench'); // warm the cache
await time(1000, undefined);
const cached = [];
const uncached = [];
let cachedRequests = 0;
let uncachedRequests = 0;
for (let r = 0; r < Number(reps); r++) {
  let before = promptGets();
  cached.push(await time(Number(cachedN), undefined));
  cachedRequests += promptGets() - before;
  before = promptGets();
  uncached.push(await time(Number(uncachedN), { cacheTtlSeconds: 0 }));
  uncachedRequests += promptGets() - before;
}
console.log(`prompt.get, median of ${reps} repetitions (Node ${process.version})`);
console.log(`| variant | gets | requests sent | µs per get |`);
console.log(`|---|---:|---:|---:|`);
console.log(`| cached (default TTL 60 s) | ${Number(cachedN) * Number(reps)} | ${cachedRequests} | ${median(cached).toFixed(3)} |`);
console.log(
  `| cacheTtlSeconds: 0 (one request each, local server in-process) | ${Number(uncachedN) * Number(reps)} | ${uncachedRequests} | ${median(uncached).toFixed(1)} |`,
);
await server.close();

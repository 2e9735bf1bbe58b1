// What a Cloudflare Worker's bundle gains from obs, next to what it gains from @vercel/otel (with
// Hono's own OpenTelemetry middleware, @hono/otel, for the Hono app): hello-world Workers (plain
// and Hono) bundled as wrangler bundles them under nodejs_compat (the
// same bundling the @obs/hono workerd test runs), minified, and measured raw and gzipped (zlib's
// default level, as the Workers size limit counts compressed bytes). Sizes are deterministic for a
// lockfile: no timing, so this runs on any machine.
//
// node bench/edge-size/run.mjs [--write]   (from the repository root, after `npx turbo run build`)
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { bundleWorker } from '../../packages/hono/test/worker-bundle.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const WORKERS = ['hello', 'hello-obs', 'hello-vercel-otel', 'hono', 'hono-obs', 'hono-vercel-otel'];

const sizes = {};
for (const name of WORKERS) {
  const code = await bundleWorker(join(here, 'workers', `${name}.js`), { minify: true });
  sizes[name] = { raw: Buffer.byteLength(code), gzip: gzipSync(code).byteLength };
}
const gain = (variant, base) => ({ raw: sizes[variant].raw - sizes[base].raw, gzip: sizes[variant].gzip - sizes[base].gzip });
const gains = {
  '@obs/core (initObs + one observation)': gain('hello-obs', 'hello'),
  '@vercel/otel (registerOTel + one span)': gain('hello-vercel-otel', 'hello'),
  '@obs/hono (app.use(obs()))': gain('hono-obs', 'hono'),
  '@vercel/otel + @hono/otel (a span per request)': gain('hono-vercel-otel', 'hono'),
};
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log('bundle'.padEnd(22), 'raw'.padStart(12), 'gzip'.padStart(12));
for (const [name, s] of Object.entries(sizes)) console.log(name.padEnd(22), kb(s.raw).padStart(12), kb(s.gzip).padStart(12));
console.log('\nwhat the Worker gains'.padEnd(51), 'raw'.padStart(12), 'gzip'.padStart(12));
for (const [name, g] of Object.entries(gains)) console.log(name.padEnd(50), kb(g.raw).padStart(12), kb(g.gzip).padStart(12));
if (process.argv.includes('--write')) {
  writeFileSync(join(here, 'results.json'), `${JSON.stringify({ sizes, gains }, null, 2)}\n`);
  console.log('\nwrote bench/edge-size/results.json');
}

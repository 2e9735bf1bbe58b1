// Bundles tsc's JavaScript in dist/ into one file per package entry plus the chunks they share
// (dist/chunks/), then deletes the per-module files: a cold start then loads a handful of files,
// not 150 (each costs Node.js's loader about half a millisecond). Code only some calls need (the
// doctor, the OTLP encoder, the API client's resources...) is reached through dynamic import() and
// lands in chunks of its own, loaded on first use. The .d.ts files stay as tsc wrote them: the
// types and their paths do not change. @opentelemetry/api (the peer) and every other package stay
// imports.
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
/** The package's doors (package.json `exports` and `bin`), as tsc wrote them. */
const ENTRIES = ['index.js', 'http/index.js', 'kit.js', 'browser/index.js', 'cli.js'];

const result = await build({
  entryPoints: ENTRIES.map((e) => join(dist, e)),
  outdir: dist,
  outbase: dist,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  // Packages (the peer, optional ones found at run time) and Node.js built-ins stay imports.
  packages: 'external',
  external: ['node:*'],
  chunkNames: 'chunks/[name]-[hash]',
  // Names stay readable in stack traces; whitespace and comments go (fewer bytes to parse).
  minifyWhitespace: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});

// Every other .js file tsc wrote is now inside a bundle.
const written = new Set(Object.keys(result.metafile.outputs).map((p) => join(process.cwd(), p)));
const walk = (dir) => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
let removed = 0;
for (const file of walk(dist)) {
  if (file.endsWith('.js') && !written.has(file)) {
    rmSync(file);
    removed++;
  }
}
const chunks = [...written].filter((f) => relative(dist, f).startsWith('chunks/')).length;
console.log(`bundled ${ENTRIES.length} entries and ${chunks} chunks (${removed} module files folded in)`);

// Folds a package's tsc output into one file: dist/index.js, with every other package and Node.js
// built-in left an import, then deletes the module files it holds (the .d.ts files stay). A cold
// start then loads one of the adapter's files instead of a dozen (Node.js's loader costs about
// half a millisecond a file). Run from the package's folder, after tsc: `node ../../scripts/bundle-entry.mjs`.
// (@obs/core, with several doors sharing state, has its own: packages/core/scripts/bundle.mjs.)
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const dist = join(process.cwd(), 'dist');
const entry = join(dist, 'index.js');
await build({
  entryPoints: [entry],
  outfile: entry,
  allowOverwrite: true,
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  packages: 'external',
  external: ['node:*'],
  // Names stay readable in stack traces; whitespace and comments go.
  minifyWhitespace: true,
  legalComments: 'none',
  logLevel: 'warning',
});
const walk = (dir) => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
let folded = 0;
for (const file of walk(dist)) {
  if (file.endsWith('.js') && file !== entry) {
    rmSync(file);
    folded++;
  }
}
console.log(`dist/index.js holds ${folded + 1} module files`);

// Folds a package's tsc output into one file: dist/index.js, with every other package and Node.js
// built-in left an import, then deletes the module files it holds (the .d.ts files stay). A cold
// start then loads one of the adapter's files instead of a dozen (Node.js's loader costs about
// half a millisecond a file). Run from the package's folder, after tsc:
// `node ../../scripts/bundle-entry.mjs`. (@obs/core, with several doors sharing state, has its own:
// packages/core/scripts/bundle.mjs.)
import { join } from 'node:path';
import { build } from 'esbuild';
import { BUNDLE_OPTIONS, removeModuleFiles } from './bundle-common.mjs';

const dist = join(process.cwd(), 'dist');
const entry = join(dist, 'index.js');
await build({ ...BUNDLE_OPTIONS, entryPoints: [entry], outfile: entry, allowOverwrite: true });
const folded = removeModuleFiles(dist, new Set([entry]));
console.log(`dist/index.js holds ${folded + 1} module files`);

// What the packages' bundling shares (packages/core/scripts/bundle.mjs, scripts/bundle-entry.mjs):
// esbuild's options and the removal of the module files a bundle now holds.
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** ES modules for Node.js 22 and edge runtimes; every package and Node.js built-in stays an import. */
export const BUNDLE_OPTIONS = {
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  packages: 'external',
  external: ['node:*'],
  // Whitespace and comments go; names stay readable. Not keepNames: its __name() calls keep every
  // function alive in an app's own bundle (a Worker's grew by 14 KiB of gzip in bench/edge-size)
  // and run at import. esbuild renames a binding that clashes with another module's (obs's tests
  // check the exported names), so a name that is seen is set where the function is made.
  minifyWhitespace: true,
  legalComments: 'none',
  logLevel: 'warning',
};

/** Deletes every .js file under `dir` but those in `keep` (absolute paths); returns how many. */
export function removeModuleFiles(dir, keep) {
  const walk = (d) => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
  let removed = 0;
  for (const file of walk(dir)) {
    if (file.endsWith('.js') && !keep.has(file)) {
      rmSync(file);
      removed++;
    }
  }
  return removed;
}

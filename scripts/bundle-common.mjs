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
  // Functions and classes keep their own names where esbuild renames a binding to avoid a clash
  // (an instrumentation names a span after `obsMiddleware`, stack traces show them); whitespace
  // and comments go.
  keepNames: true,
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

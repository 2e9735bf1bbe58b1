// Folds tsc's JavaScript in dist/ into two bundles: a cold start then loads 2 of obs's files, not
// 153 (Node.js's loader costs about half a millisecond a file, whatever its size). The Node.js
// doors (`.`, `/http`, `/kit`) share one bundle, dist/chunks/obs.js, and stay thin files that
// re-export their own names from it, so every door sees the same module state. What only some
// calls need and reach through import() (the doctor) stays in that file, as a module evaluated on
// first use: a chunk of its own would cost a shared chunk more at start (esbuild puts the code
// both reach in a third file). `/browser` is bundled on its own (it must never reach a Node.js built-in); the CLI imports the
// root door. The .d.ts files stay as tsc wrote them: types and their paths do not change.
// @opentelemetry/api (the peer), other packages and Node.js built-ins stay imports.
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BUNDLE_OPTIONS as COMMON, removeModuleFiles } from '../../../scripts/bundle-common.mjs';

/** The package's folder: esbuild's paths are read from it, wherever the script is run from. */
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
/** The Node.js doors (package.json `exports`) as tsc wrote them. */
const DOORS = ['index.js', 'http/index.js', 'kit.js'];

/** The names a door exports (export * resolved). */
async function exportsOf(door) {
  const r = await build({
    ...COMMON,
    absWorkingDir: root,
    entryPoints: [join(dist, door)],
    write: false,
    metafile: true,
    outdir: '/tmp/obs-bundle-probe',
  });
  return Object.values(r.metafile.outputs)[0].exports;
}

const names = Object.fromEntries(await Promise.all(DOORS.map(async (d) => [d, await exportsOf(d)])));
// One module exporting every door's names; a name two doors export must be one binding.
const lines = DOORS.map((d) => `export * from './${d}';`);
writeFileSync(join(dist, 'obs.js'), `${lines.join('\n')}\n`);
const node = await build({
  ...COMMON,
  absWorkingDir: root,
  entryPoints: [join(dist, 'obs.js')],
  outfile: join(dist, 'chunks', 'obs.js'),
  metafile: true,
});
const shared = Object.values(node.metafile.outputs)[0].exports;
for (const door of DOORS) {
  const missing = names[door].filter((n) => !shared.includes(n));
  if (missing.length > 0) throw new Error(`${door}: ${missing.join(', ')} exported by two doors as different bindings`);
  const toChunk = relative(join(dist, door, '..'), join(dist, 'chunks', 'obs.js'));
  writeFileSync(join(dist, door), `export { ${names[door].join(', ')} } from './${toChunk}';\n`);
}
const browser = await build({
  ...COMMON,
  absWorkingDir: root,
  entryPoints: [join(dist, 'browser/index.js')],
  outfile: join(dist, 'browser/index.js'),
  allowOverwrite: true,
  metafile: true,
});

// Every other .js file tsc wrote is now inside a bundle; the CLI stays as it is (it imports ./index.js).
const keep = new Set([...Object.keys(node.metafile.outputs), ...Object.keys(browser.metafile.outputs)].map((p) => join(root, p)));
for (const f of [...DOORS, 'cli.js']) keep.add(join(dist, f));
const folded = removeModuleFiles(dist, keep);
console.log(`@obs/core: chunks/obs.js and browser/index.js hold ${folded} module files`);

// Folds tsc's JavaScript in dist/ into two bundles: a cold start then loads 2 of obs's files, not
// 153 (Node.js's loader costs about half a millisecond a file, whatever its size). The Node.js
// doors (`.`, `/http`, `/kit`) share one bundle, dist/chunks/obs.js, and stay thin files that
// re-export their own names from it, so every door sees the same module state. What only some
// calls need and reach through import() (the doctor) stays in that file, as a module evaluated on
// first use: a chunk of its own would cost a shared chunk more at start (esbuild puts the code
// both reach in a third file). `/browser` is bundled on its own (it must never reach a Node.js built-in); the CLI imports the
// root door. The .d.ts files stay as tsc wrote them: types and their paths do not change.
// @opentelemetry/api (the peer), other packages and Node.js built-ins stay imports.
// The same doors are built again for edge runtimes (package.json's `edge-light` and `workerd`
// conditions: Next.js Edge routes, middleware and edge instrumentation, Vercel's edge functions,
// Cloudflare Workers) as dist/edge/*.js over dist/chunks/obs-edge.js, with the modules that resolve
// the app's packages from the file system (`EDGE_SWAPS`) replaced by their edge versions: the
// AI SDK's presence and the app's package.json are found at run time on Node.js only, and an
// edge bundle neither ships that code nor gets a bundler's warning about Node.js APIs in it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BUNDLE_OPTIONS as COMMON, removeModuleFiles } from '../../../scripts/bundle-common.mjs';

/** The package's folder: esbuild's paths are read from it, wherever the script is run from. */
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
/** The Node.js doors (package.json `exports`) as tsc wrote them. */
const DOORS = ['index.js', 'http/index.js', 'kit.js'];

/** The edge doors, by the Node.js door they stand for. */
const EDGE_DOORS = { 'index.js': 'edge/index.js', 'http/index.js': 'edge/http.js', 'kit.js': 'edge/kit.js' };
/** Modules an edge bundle gets another version of (same exports, no Node.js resolution). */
const EDGE_SWAPS = { 'setup/ai-sdk-telemetry.js': 'setup/ai-sdk-telemetry-edge.js' };

/** esbuild plugin: the edge version of each module in `EDGE_SWAPS`. */
const edgeSwaps = {
  name: 'obs-edge-swaps',
  setup(b) {
    for (const [from, to] of Object.entries(EDGE_SWAPS)) {
      const file = join(dist, from);
      b.onLoad({ filter: new RegExp(`${from.replace(/[./]/g, (c) => `\\${c}`)}$`) }, (args) =>
        args.path === file ? { contents: readFileSync(join(dist, to), 'utf8'), resolveDir: dirname(file), loader: 'js' } : undefined,
      );
    }
  },
};

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
const edge = await build({
  ...COMMON,
  absWorkingDir: root,
  entryPoints: [join(dist, 'obs.js')],
  outfile: join(dist, 'chunks', 'obs-edge.js'),
  metafile: true,
  plugins: [edgeSwaps],
});
const shared = Object.values(node.metafile.outputs)[0].exports;
const edgeShared = Object.values(edge.metafile.outputs)[0].exports;
mkdirSync(join(dist, 'edge'), { recursive: true });
for (const door of DOORS) {
  const missing = names[door].filter((n) => !shared.includes(n) || !edgeShared.includes(n));
  if (missing.length > 0) throw new Error(`${door}: ${missing.join(', ')} exported by two doors as different bindings`);
  const reexport = (file, chunk) => {
    const toChunk = relative(join(dist, file, '..'), join(dist, 'chunks', chunk));
    writeFileSync(join(dist, file), `export { ${names[door].join(', ')} } from './${toChunk}';\n`);
  };
  reexport(door, 'obs.js');
  reexport(EDGE_DOORS[door], 'obs-edge.js');
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
const outputs = [node, edge, browser].flatMap((r) => Object.keys(r.metafile.outputs));
const keep = new Set(outputs.map((p) => join(root, p)));
for (const f of [...DOORS, ...Object.values(EDGE_DOORS), 'cli.js']) keep.add(join(dist, f));
const folded = removeModuleFiles(dist, keep);
console.log(`@obs/core: chunks/obs.js, chunks/obs-edge.js and browser/index.js hold ${folded} module files`);

/**
 * A Worker bundled for `workerd` as wrangler bundles it under `nodejs_compat`: one ES module, the
 * `workerd`/`worker`/`browser` export conditions, Node.js built-ins left to the runtime (imported
 * as `node:*`; a CommonJS `require('async_hooks')`, as OpenTelemetry's context manager has, turned
 * into an import, since an ES module Worker has no `require`). The workerd test runs what this
 * makes, and bench/edge-size measures it.
 */
import { builtinModules } from 'node:module';
import { build } from 'esbuild';

const NODE_BUILTINS = new Set(builtinModules.map((m) => m.replace(/^node:/, '')));

/** @type {import('esbuild').Plugin} */
const nodeBuiltins = {
  name: 'node-builtins',
  setup(b) {
    b.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => {
      const name = args.path.replace(/^node:/, '');
      if (!NODE_BUILTINS.has(name)) return undefined;
      if (args.kind === 'require-call') return { path: name, namespace: 'node-builtin' };
      return { path: `node:${name}`, external: true };
    });
    b.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({ contents: `export * from 'node:${args.path}';` }));
  },
};

/**
 * Bundles `entry` (and what it imports from node_modules) into one Worker module.
 * @param {string} entry
 * @param {{ minify?: boolean }} [options] minified as `wrangler deploy --minify`
 * @returns {Promise<string>}
 */
export async function bundleWorker(entry, { minify = false } = {}) {
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    plugins: [nodeBuiltins],
    minify,
    write: false,
    logLevel: 'silent',
  });
  return out.outputFiles[0].text;
}

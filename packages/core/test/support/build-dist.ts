/**
 * Vitest global set-up: builds dist/ as `npm run build` does (tsc, then scripts/bundle.mjs) once
 * before any test runs, so the tests that run the built package as a consumer installs it (the
 * CommonJS consumer, the cold start's loaded files) see the real bundle, and no two of them
 * rebuild it under each other.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const coreDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const repoRoot = resolve(coreDir, '../..');
/** Node 22 from the `node` devDependency; the test runner's own Node otherwise. */
export const node = existsSync(join(repoRoot, 'node_modules/.bin/node')) ? join(repoRoot, 'node_modules/.bin/node') : process.execPath;

let built: Promise<void> | undefined;

export default async function buildDist(): Promise<void> {
  built ??= (async () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    await run(node, [tsc, '-p', join(coreDir, 'tsconfig.json')], { cwd: repoRoot }).catch((err: { stdout?: string; message: string }) => {
      // Type errors elsewhere still emit JS; the tests that run dist/ are what check it.
      console.warn(`tsc reported problems building @obs/core:\n${err.stdout ?? err.message}`);
    });
    await run(node, [join(coreDir, 'scripts/bundle.mjs')], { cwd: coreDir });
  })();
  await built;
}

/**
 * Vitest global set-up: compiles dist/ once before any test runs. The MCP servers the tests start
 * are child processes that import the package as an app does, built (`../../dist/index.js`).
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const dir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export default async function buildDist(): Promise<void> {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: dir });
}

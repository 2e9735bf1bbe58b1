import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { runNode } from '../../../tests/support/framework-app.js';

declare module 'vitest' {
  export interface ProvidedContext {
    build: { log: string; ms: number };
  }
}

export const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), 'app');
const require = createRequire(join(APP_DIR, 'package.json'));

/** One real `nuxt build` (Vite for the app, Nitro's node-server preset for the server) of test/app for the whole suite. */
export default async function setup(project: TestProject): Promise<void> {
  const nuxt = join(dirname(require.resolve('nuxt/package.json')), 'bin/nuxt.mjs');
  const start = performance.now();
  const log = await runNode([nuxt, 'build'], APP_DIR);
  const ms = Math.round(performance.now() - start);
  project.provide('build', { log, ms });
  console.log(`[nuxt] test/app built in ${(ms / 1000).toFixed(1)} s`);
}

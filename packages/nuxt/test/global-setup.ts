import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildOnce } from '../../../tests/support/framework-app.js';

export const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), 'app');

/** One real `nuxt build` (Vite for the app, Nitro's node-server preset for the server) of test/app for the whole suite. */
export default function setup(project: TestProject): Promise<void> {
  const nuxt = join(dirname(createRequire(join(APP_DIR, 'package.json')).resolve('nuxt/package.json')), 'bin/nuxt.mjs');
  return buildOnce(project, 'nuxt', APP_DIR, [nuxt, 'build']);
}

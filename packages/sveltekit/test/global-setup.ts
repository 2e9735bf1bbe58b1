import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildOnce } from '../../../tests/support/framework-app.js';

export const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), 'app');

/** One real `vite build` (SvelteKit with adapter-node: client, server and the Node.js server) of test/app for the whole suite. */
export default function setup(project: TestProject): Promise<void> {
  const vite = join(dirname(createRequire(join(APP_DIR, 'package.json')).resolve('vite/package.json')), 'bin/vite.js');
  return buildOnce(project, 'sveltekit', APP_DIR, [vite, 'build']);
}

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildOnce } from '../../../tests/support/framework-app.js';

export const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), 'app');

/** The floor app: floors/sveltekit, on SvelteKit 2.0.0 with Svelte 4 and Vite 5 (the low end of the peer range). */
export const FLOOR_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../floors/sveltekit');

/** `vite build` as `dir` resolves Vite. */
function viteBuild(dir: string): string[] {
  return [join(dirname(createRequire(join(dir, 'package.json')).resolve('vite/package.json')), 'bin/vite.js'), 'build'];
}

/** One real `vite build` (SvelteKit with adapter-node: client, server and the Node.js server) of each app for the whole suite. */
export default async function setup(project: TestProject): Promise<void> {
  await Promise.all([
    buildOnce(project, 'sveltekit', APP_DIR, viteBuild(APP_DIR)),
    buildOnce(project, 'sveltekit 2.0.0', FLOOR_DIR, viteBuild(FLOOR_DIR), 'floorBuild'),
  ]);
}

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildOnce } from '../../../tests/support/framework-app.js';

export const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), 'app');

/** The floor app: floors/nuxt, on Nuxt 3.9.1, Nitro 2.8.1 and h3 1.10.0 (the low end of the peer range). */
export const FLOOR_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../floors/nuxt');

/** `nuxt build` as `dir` resolves Nuxt. */
function nuxtBuild(dir: string): string[] {
  return [join(dirname(createRequire(join(dir, 'package.json')).resolve('nuxt/package.json')), 'bin/nuxt.mjs'), 'build'];
}

/** One real `nuxt build` (Vite for the app, Nitro's node-server preset for the server) of each app for the whole suite. */
export default async function setup(project: TestProject): Promise<void> {
  // One after the other: two Nuxt builds at once on two cores take longer than in turn.
  await buildOnce(project, 'nuxt', APP_DIR, nuxtBuild(APP_DIR));
  await buildOnce(project, 'nuxt 3.9.1', FLOOR_DIR, nuxtBuild(FLOOR_DIR), 'floorBuild');
}

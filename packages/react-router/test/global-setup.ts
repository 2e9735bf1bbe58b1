import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildOnce } from '../../../tests/support/framework-app.js';

/** The app the suite builds and serves: examples/react-router (the demo's app). */
export const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../examples/react-router');

/** The floor app: floors/react-router, on React Router 8.1.0 and Vite 7 (the low end of the peer range: the first release whose request instrumentation reports the matched route and status). */
export const FLOOR_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../floors/react-router');

/** The 7.x floor app: floors/react-router-7, on React Router 7.9.5 (the first release with `unstable_instrumentations`) and Vite 5. */
export const FLOOR_7_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../floors/react-router-7');

/** The bin of a package as `dir` resolves it. */
export function binOf(dir: string, pkg: string, bin: string): string {
  return join(dirname(createRequire(join(dir, 'package.json')).resolve(`${pkg}/package.json`)), bin);
}

/** One real `react-router build` (Vite: client and SSR bundles) of each app for the whole suite. */
export default async function setup(project: TestProject): Promise<void> {
  await Promise.all([
    buildOnce(project, 'react-router', APP_DIR, [binOf(APP_DIR, '@react-router/dev', 'bin.cjs'), 'build']),
    buildOnce(project, 'react-router 8.1.0', FLOOR_DIR, [binOf(FLOOR_DIR, '@react-router/dev', 'bin.cjs'), 'build'], 'floorBuild'),
    buildOnce(project, 'react-router 7.9.5', FLOOR_7_DIR, [binOf(FLOOR_7_DIR, '@react-router/dev', 'bin.js'), 'build'], 'majorFloorBuild'),
  ]);
}

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildOnce } from '../../../tests/support/framework-app.js';

/** The app the suite builds and serves: examples/react-router (the demo's app). */
export const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../examples/react-router');

/** One real `react-router build` (Vite: client and SSR bundles) for the whole suite. */
export default function setup(project: TestProject): Promise<void> {
  const cli = join(dirname(createRequire(join(APP_DIR, 'package.json')).resolve('@react-router/dev/package.json')), 'bin.cjs');
  return buildOnce(project, 'react-router', APP_DIR, [cli, 'build']);
}

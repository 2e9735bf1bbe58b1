/**
 * The low end of the peer range: a React Router 8.1.0 framework-mode app (floors/react-router,
 * Vite 7, `instrumentations = [obsInstrumentation()]` in entry.server), built once by its
 * own `react-router build` and served by its `react-router-serve`, read back from the local obs
 * server: the checks of every 8.x build (test/checks.ts: no build warning, a document request with
 * its loaders, an action, a failing loader, an unmatched path).
 */
import { describe } from 'vitest';
import { serveWithObs } from '../../../tests/support/framework-app.js';
import { instrumentationChecks } from './checks.js';
import { binOf, FLOOR_DIR } from './global-setup.js';

const suite = serveWithObs(
  (port) => [binOf(FLOOR_DIR, '@react-router/serve', 'bin.cjs'), 'build/server/index.js', String(port)],
  FLOOR_DIR,
);

describe('obsInstrumentation() on React Router 8.1.0', () => {
  instrumentationChecks(suite, 'floorBuild');
});

/**
 * The low end of the peer range: a SvelteKit 2.0.0 app (floors/sveltekit: Svelte 4, Vite 5,
 * adapter-node 2, no tracing of SvelteKit's own, `handle = obsHandle()` and `handleError =
 * obsHandleError()` in hooks.server), built once by its own `vite build` and served by `node
 * build`, read back from the local obs server: the checks of every build (test/checks.ts: no build
 * warning, a page with a load, a `+server` endpoint, a failing load and an unmatched path).
 */
import { describe } from 'vitest';
import { serveWithObs } from '../../../tests/support/framework-app.js';
import { handleChecks } from './checks.js';
import { FLOOR_DIR } from './global-setup.js';

const suite = serveWithObs(() => ['build/index.js'], FLOOR_DIR);

describe('obsHandle() on SvelteKit 2.0.0', () => {
  handleChecks(suite, { build: 'floorBuild', kitSpans: false });
});

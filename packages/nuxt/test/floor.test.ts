/**
 * The low end of the peer range: a Nuxt 3.9.1 app on Nitro 2.8.1 and h3 1.10.0 (floors/nuxt,
 * `defineNitroPlugin(obsNitroPlugin())` in server/plugins), built once by its own `nuxt build`
 * and served by `node .output/server/index.mjs`, read back from the local obs server: the checks
 * of every build (test/checks.ts: no build warning, a `server/api` route with a body and a param,
 * a throwing handler).
 */
import { describe } from 'vitest';
import { serveWithObs } from '../../../tests/support/framework-app.js';
import { nitroChecks } from './checks.js';
import { FLOOR_DIR } from './global-setup.js';

const suite = serveWithObs(() => ['.output/server/index.mjs'], FLOOR_DIR);

describe('obsNitroPlugin() on Nuxt 3.9.1 / Nitro 2.8.1 / h3 1.10.0', () => {
  nitroChecks(suite, 'floorBuild');
});

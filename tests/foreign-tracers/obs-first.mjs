// obs initialised before the app's tracer, as an app whose first line is `initObs()`:
// `node --import ./obs-first.mjs --import ./sentry-setup.mjs app.cjs` (the app's own initObs()
// then returns this handle). An ES module: Node.js 22 fails to start when a `--require`d file
// loads an ES module (require(esm)) and a later `--import` registers module hooks, as Sentry does.
import { initObs } from '@obs/core';
import options from './obs-options.cjs';

initObs(options.obsInitOptions());

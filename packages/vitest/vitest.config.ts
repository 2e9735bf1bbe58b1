import { packageConfig } from '../../vitest.shared.js';

// No tracer-provider projects: what these suites check (the recorder, the child vitest runs)
// does not depend on which provider exports the spans; the e2e runs use obs's default one. The
// fresh project's own eval files are run by the child vitest, not by this one.
export default packageConfig(import.meta.dirname, {
  providers: false,
  exclude: ['test/fixture/**', '**/node_modules/**'],
  hookTimeout: 300_000,
});

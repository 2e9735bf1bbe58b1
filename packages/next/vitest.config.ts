import { packageConfig } from '../../vitest.shared.js';

// Every test on both tracer providers (obs's light one, OpenTelemetry's SDK one); the freeze suite
// once (its app is a process of its own, which the provider setting does not reach). One real
// `next build` of examples/next for the suite (about half a minute on 2 cores).
export default packageConfig(import.meta.dirname, {
  providers: { sdkExclude: ['test/freeze.test.ts'] },
  globalSetup: ['test/global-setup.ts'],
  hookTimeout: 120_000,
});

import { packageConfig } from '../../vitest.shared.js';

// Every test on both tracer providers (obs's light one, OpenTelemetry's SDK one), in this
// process and in the MCP server processes it starts (OBS_TEST_PROVIDER reaches them); the
// viewer's page once.
export default packageConfig(import.meta.dirname, {
  providers: { sdkExclude: ['test/viewer.test.ts'] },
  globalSetup: ['test/support/build-dist.ts'],
});

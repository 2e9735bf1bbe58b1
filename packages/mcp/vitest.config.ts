import { defineConfig } from 'vitest/config';
import { providerProjects, sharedReporters } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // Every test on both tracer providers (obs's light one, OpenTelemetry's SDK one), in this
    // process and in the MCP server processes it starts (OBS_TEST_PROVIDER reaches them); the
    // viewer's page once.
    projects: providerProjects(['test/**/*.test.ts'], ['test/**/*.test.ts'], ['test/viewer.test.ts']),
    globalSetup: ['test/support/build-dist.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: sharedReporters(import.meta.dirname),
  },
});

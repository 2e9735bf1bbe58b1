import { defineConfig } from 'vitest/config';
import { providerProjects, sharedReporters } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // Every test on both tracer providers (obs's light one, OpenTelemetry's SDK one).
    projects: providerProjects(['test/**/*.test.ts']),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: sharedReporters(import.meta.dirname),
  },
});

import { defineConfig } from 'vitest/config';
import { providerProjects, sharedReporters } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // Every test on obs's light tracer provider; the in-process ones on OpenTelemetry's SDK provider
    // too (the freeze suite's functions run in child processes of their own: once is enough).
    projects: providerProjects(['test/**/*.test.ts'], ['test/wrap-handler.test.ts']),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: sharedReporters(import.meta.dirname),
  },
});

import { defineConfig } from 'vitest/config';
import { providerProjects, sharedReporters } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // Every test on both tracer providers (obs's light one, OpenTelemetry's SDK one); the freeze suite
    // once (its app is a process of its own, which the provider setting does not reach).
    projects: providerProjects(['test/**/*.test.ts'], ['test/**/*.test.ts'], ['test/freeze.test.ts']),
    // One real `next build` of examples/next for the suite (about half a minute on 2 cores).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: sharedReporters(import.meta.dirname),
  },
});

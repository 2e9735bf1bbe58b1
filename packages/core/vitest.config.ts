import { defineConfig } from 'vitest/config';
import { providerProjects, sharedReporters } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // dist/ built once, as a consumer gets it, for the tests that run the built package.
    globalSetup: ['test/support/build-dist.ts'],
    reporters: sharedReporters(import.meta.dirname),
    // The tracing, export, media, request-layer and wrapper-kit tests run on both tracer providers; the light
    // provider's own tests have nothing to say about the SDK's.
    projects: providerProjects(
      ['test/**/*.test.ts'],
      [
        'test/tracing/**/*.test.ts',
        'test/export/**/*.test.ts',
        'test/http/**/*.test.ts',
        'test/media/**/*.test.ts',
        'test/wrap/**/*.test.ts',
      ],
      ['test/tracing/light-provider.test.ts'],
    ),
  },
});

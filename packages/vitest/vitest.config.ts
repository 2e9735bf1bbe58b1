import { defineConfig } from 'vitest/config';
import { sharedReporters } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // No tracer-provider projects: what these suites check (the recorder, the child vitest runs)
    // does not depend on which provider exports the spans; the e2e runs use obs's default one.
    include: ['test/**/*.test.ts'],
    // The fresh project's own eval files, run by the child vitest, not by this one.
    exclude: ['test/fixture/**', '**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 300_000,
    reporters: sharedReporters(import.meta.dirname),
  },
});

import { defineConfig } from 'vitest/config';
import { sharedReporters } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // One project: the suite drives a production build served by Nitro's node server in its own
    // process, where obs picks its tracer provider itself (the vitest process's provider set-up of
    // `providerProjects` never reaches it), so a second project would run the same thing twice.
    include: ['test/**/*.test.ts'],
    // One real `nuxt build` (Vite and Nitro, node-server preset) of test/app for the suite.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: sharedReporters(import.meta.dirname),
  },
});
